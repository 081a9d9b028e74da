package dev.jtecs.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jtecs.builtin.systems.BuiltinSystems;
import dev.jtecs.schedule.SystemInfo;
import java.lang.invoke.MethodType;
import org.junit.jupiter.api.Test;

class BuiltinSystemsLinkTest {
    @Test
    void theInstallerNameIsTheBuiltinSystemsClass() {
        assertEquals(BuiltinSystems.class.getName(), BuiltinSystemsLink.INSTALLER); // a rename must move both
        assertEquals(MethodType.methodType(void.class, World.class),
                BuiltinSystemsLink.find(BuiltinSystemsLink.INSTALLER).type());
    }

    @Test
    void aNewWorldCarriesTheBuiltinSystemsInInstallOrder() {
        try (World world = World.create()) {
            assertEquals(BuiltinSystems.NAMES, world.listSystems().stream().map(SystemInfo::name).toList());
        }
    }

    @Test
    void installingThroughTheLinkIsInstallingDirectly() {
        try (World world = World.create()) {
            BuiltinSystems.remove(world);
            BuiltinSystemsLink.install(world);
            assertEquals(BuiltinSystems.NAMES, world.listSystems().stream().map(SystemInfo::name).toList());
            assertThrows(IllegalArgumentException.class, () -> BuiltinSystemsLink.install(world),
                    "names taken: install's own exception, unwrapped");
        }
    }

    @Test
    void aMissingInstallerIsAClearError() {
        String name = "dev.jtecs.builtin.systems.NoSuchInstaller";
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> BuiltinSystemsLink.find(name));
        assertTrue(missing.getMessage().contains(name + ".install(World)"), missing.getMessage());
        assertInstanceOf(ClassNotFoundException.class, missing.getCause());
    }

    @Test
    void anInstallerWithoutInstallWorldIsAClearError() {
        String name = WorldConfig.class.getName(); // a real class with no install(World)
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> BuiltinSystemsLink.find(name));
        assertTrue(missing.getMessage().contains(name + ".install(World)"), missing.getMessage());
        assertInstanceOf(NoSuchMethodException.class, missing.getCause());
    }
}
