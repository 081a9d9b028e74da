package dev.jtecs.component.internal;

/**
 * Records at the edge of what the JVM and jtecs accept (issue 18): a record's canonical constructor may take 254
 * parameter slots (255 less the instance; a {@code long} takes two), jtecs reaches constructors of at most
 * {@link RecordCodec#MAX_CONSTRUCTOR_SLOTS}. The components are numbered, not meaningful (written out by a script).
 */
final class WideRecords {
    private WideRecords() {
    }

    /** 254 ints: the most the JVM allows, one slot past jtecs' limit. */
    record Ints254(
            int i0, int i1, int i2, int i3, int i4, int i5, int i6, int i7, int i8, int i9, int i10, int i11, int i12,
            int i13, int i14, int i15, int i16, int i17, int i18, int i19, int i20, int i21, int i22, int i23,
            int i24, int i25, int i26, int i27, int i28, int i29, int i30, int i31, int i32, int i33, int i34,
            int i35, int i36, int i37, int i38, int i39, int i40, int i41, int i42, int i43, int i44, int i45,
            int i46, int i47, int i48, int i49, int i50, int i51, int i52, int i53, int i54, int i55, int i56,
            int i57, int i58, int i59, int i60, int i61, int i62, int i63, int i64, int i65, int i66, int i67,
            int i68, int i69, int i70, int i71, int i72, int i73, int i74, int i75, int i76, int i77, int i78,
            int i79, int i80, int i81, int i82, int i83, int i84, int i85, int i86, int i87, int i88, int i89,
            int i90, int i91, int i92, int i93, int i94, int i95, int i96, int i97, int i98, int i99, int i100,
            int i101, int i102, int i103, int i104, int i105, int i106, int i107, int i108, int i109, int i110,
            int i111, int i112, int i113, int i114, int i115, int i116, int i117, int i118, int i119, int i120,
            int i121, int i122, int i123, int i124, int i125, int i126, int i127, int i128, int i129, int i130,
            int i131, int i132, int i133, int i134, int i135, int i136, int i137, int i138, int i139, int i140,
            int i141, int i142, int i143, int i144, int i145, int i146, int i147, int i148, int i149, int i150,
            int i151, int i152, int i153, int i154, int i155, int i156, int i157, int i158, int i159, int i160,
            int i161, int i162, int i163, int i164, int i165, int i166, int i167, int i168, int i169, int i170,
            int i171, int i172, int i173, int i174, int i175, int i176, int i177, int i178, int i179, int i180,
            int i181, int i182, int i183, int i184, int i185, int i186, int i187, int i188, int i189, int i190,
            int i191, int i192, int i193, int i194, int i195, int i196, int i197, int i198, int i199, int i200,
            int i201, int i202, int i203, int i204, int i205, int i206, int i207, int i208, int i209, int i210,
            int i211, int i212, int i213, int i214, int i215, int i216, int i217, int i218, int i219, int i220,
            int i221, int i222, int i223, int i224, int i225, int i226, int i227, int i228, int i229, int i230,
            int i231, int i232, int i233, int i234, int i235, int i236, int i237, int i238, int i239, int i240,
            int i241, int i242, int i243, int i244, int i245, int i246, int i247, int i248, int i249, int i250,
            int i251, int i252, int i253) {}

    /** 253 ints: the widest record of single-slot components jtecs takes. */
    record Ints253(
            int i0, int i1, int i2, int i3, int i4, int i5, int i6, int i7, int i8, int i9, int i10, int i11, int i12,
            int i13, int i14, int i15, int i16, int i17, int i18, int i19, int i20, int i21, int i22, int i23,
            int i24, int i25, int i26, int i27, int i28, int i29, int i30, int i31, int i32, int i33, int i34,
            int i35, int i36, int i37, int i38, int i39, int i40, int i41, int i42, int i43, int i44, int i45,
            int i46, int i47, int i48, int i49, int i50, int i51, int i52, int i53, int i54, int i55, int i56,
            int i57, int i58, int i59, int i60, int i61, int i62, int i63, int i64, int i65, int i66, int i67,
            int i68, int i69, int i70, int i71, int i72, int i73, int i74, int i75, int i76, int i77, int i78,
            int i79, int i80, int i81, int i82, int i83, int i84, int i85, int i86, int i87, int i88, int i89,
            int i90, int i91, int i92, int i93, int i94, int i95, int i96, int i97, int i98, int i99, int i100,
            int i101, int i102, int i103, int i104, int i105, int i106, int i107, int i108, int i109, int i110,
            int i111, int i112, int i113, int i114, int i115, int i116, int i117, int i118, int i119, int i120,
            int i121, int i122, int i123, int i124, int i125, int i126, int i127, int i128, int i129, int i130,
            int i131, int i132, int i133, int i134, int i135, int i136, int i137, int i138, int i139, int i140,
            int i141, int i142, int i143, int i144, int i145, int i146, int i147, int i148, int i149, int i150,
            int i151, int i152, int i153, int i154, int i155, int i156, int i157, int i158, int i159, int i160,
            int i161, int i162, int i163, int i164, int i165, int i166, int i167, int i168, int i169, int i170,
            int i171, int i172, int i173, int i174, int i175, int i176, int i177, int i178, int i179, int i180,
            int i181, int i182, int i183, int i184, int i185, int i186, int i187, int i188, int i189, int i190,
            int i191, int i192, int i193, int i194, int i195, int i196, int i197, int i198, int i199, int i200,
            int i201, int i202, int i203, int i204, int i205, int i206, int i207, int i208, int i209, int i210,
            int i211, int i212, int i213, int i214, int i215, int i216, int i217, int i218, int i219, int i220,
            int i221, int i222, int i223, int i224, int i225, int i226, int i227, int i228, int i229, int i230,
            int i231, int i232, int i233, int i234, int i235, int i236, int i237, int i238, int i239, int i240,
            int i241, int i242, int i243, int i244, int i245, int i246, int i247, int i248, int i249, int i250,
            int i251, int i252) {}

    /** 252 ints: wider than the filtered copier, so copies go through an argument array. */
    record Ints252(
            int i0, int i1, int i2, int i3, int i4, int i5, int i6, int i7, int i8, int i9, int i10, int i11, int i12,
            int i13, int i14, int i15, int i16, int i17, int i18, int i19, int i20, int i21, int i22, int i23,
            int i24, int i25, int i26, int i27, int i28, int i29, int i30, int i31, int i32, int i33, int i34,
            int i35, int i36, int i37, int i38, int i39, int i40, int i41, int i42, int i43, int i44, int i45,
            int i46, int i47, int i48, int i49, int i50, int i51, int i52, int i53, int i54, int i55, int i56,
            int i57, int i58, int i59, int i60, int i61, int i62, int i63, int i64, int i65, int i66, int i67,
            int i68, int i69, int i70, int i71, int i72, int i73, int i74, int i75, int i76, int i77, int i78,
            int i79, int i80, int i81, int i82, int i83, int i84, int i85, int i86, int i87, int i88, int i89,
            int i90, int i91, int i92, int i93, int i94, int i95, int i96, int i97, int i98, int i99, int i100,
            int i101, int i102, int i103, int i104, int i105, int i106, int i107, int i108, int i109, int i110,
            int i111, int i112, int i113, int i114, int i115, int i116, int i117, int i118, int i119, int i120,
            int i121, int i122, int i123, int i124, int i125, int i126, int i127, int i128, int i129, int i130,
            int i131, int i132, int i133, int i134, int i135, int i136, int i137, int i138, int i139, int i140,
            int i141, int i142, int i143, int i144, int i145, int i146, int i147, int i148, int i149, int i150,
            int i151, int i152, int i153, int i154, int i155, int i156, int i157, int i158, int i159, int i160,
            int i161, int i162, int i163, int i164, int i165, int i166, int i167, int i168, int i169, int i170,
            int i171, int i172, int i173, int i174, int i175, int i176, int i177, int i178, int i179, int i180,
            int i181, int i182, int i183, int i184, int i185, int i186, int i187, int i188, int i189, int i190,
            int i191, int i192, int i193, int i194, int i195, int i196, int i197, int i198, int i199, int i200,
            int i201, int i202, int i203, int i204, int i205, int i206, int i207, int i208, int i209, int i210,
            int i211, int i212, int i213, int i214, int i215, int i216, int i217, int i218, int i219, int i220,
            int i221, int i222, int i223, int i224, int i225, int i226, int i227, int i228, int i229, int i230,
            int i231, int i232, int i233, int i234, int i235, int i236, int i237, int i238, int i239, int i240,
            int i241, int i242, int i243, int i244, int i245, int i246, int i247, int i248, int i249, int i250,
            int i251) {}

    /** 127 longs: 254 slots, the JVM's most for longs. */
    record Longs127(
            long l0, long l1, long l2, long l3, long l4, long l5, long l6, long l7, long l8, long l9, long l10,
            long l11, long l12, long l13, long l14, long l15, long l16, long l17, long l18, long l19, long l20,
            long l21, long l22, long l23, long l24, long l25, long l26, long l27, long l28, long l29, long l30,
            long l31, long l32, long l33, long l34, long l35, long l36, long l37, long l38, long l39, long l40,
            long l41, long l42, long l43, long l44, long l45, long l46, long l47, long l48, long l49, long l50,
            long l51, long l52, long l53, long l54, long l55, long l56, long l57, long l58, long l59, long l60,
            long l61, long l62, long l63, long l64, long l65, long l66, long l67, long l68, long l69, long l70,
            long l71, long l72, long l73, long l74, long l75, long l76, long l77, long l78, long l79, long l80,
            long l81, long l82, long l83, long l84, long l85, long l86, long l87, long l88, long l89, long l90,
            long l91, long l92, long l93, long l94, long l95, long l96, long l97, long l98, long l99, long l100,
            long l101, long l102, long l103, long l104, long l105, long l106, long l107, long l108, long l109,
            long l110, long l111, long l112, long l113, long l114, long l115, long l116, long l117, long l118,
            long l119, long l120, long l121, long l122, long l123, long l124, long l125, long l126) {}

    /** 126 longs and one int: 253 slots. */
    record Longs126Int1(
            int i0, long l0, long l1, long l2, long l3, long l4, long l5, long l6, long l7, long l8, long l9,
            long l10, long l11, long l12, long l13, long l14, long l15, long l16, long l17, long l18, long l19,
            long l20, long l21, long l22, long l23, long l24, long l25, long l26, long l27, long l28, long l29,
            long l30, long l31, long l32, long l33, long l34, long l35, long l36, long l37, long l38, long l39,
            long l40, long l41, long l42, long l43, long l44, long l45, long l46, long l47, long l48, long l49,
            long l50, long l51, long l52, long l53, long l54, long l55, long l56, long l57, long l58, long l59,
            long l60, long l61, long l62, long l63, long l64, long l65, long l66, long l67, long l68, long l69,
            long l70, long l71, long l72, long l73, long l74, long l75, long l76, long l77, long l78, long l79,
            long l80, long l81, long l82, long l83, long l84, long l85, long l86, long l87, long l88, long l89,
            long l90, long l91, long l92, long l93, long l94, long l95, long l96, long l97, long l98, long l99,
            long l100, long l101, long l102, long l103, long l104, long l105, long l106, long l107, long l108,
            long l109, long l110, long l111, long l112, long l113, long l114, long l115, long l116, long l117,
            long l118, long l119, long l120, long l121, long l122, long l123, long l124, long l125) {}
}
