package dev.jtecs.stress;

import dev.jtecs.component.BaseRelationship;
import dev.jtecs.component.Input;
import dev.jtecs.component.Relationship;
import dev.jtecs.component.RelationshipDefinition;
import dev.jtecs.component.RelationshipValue;
import dev.jtecs.stress.ModelComponents.Loan;
import dev.jtecs.stress.ModelComponents.Spring;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * One input of a recorded operation: a palette value, which names no entity, or an edge whose target is a
 * {@link ModelRef} resolved when the operation executes.
 */
public sealed interface ModelInput {
    /** The source of this input in an emitted test. */
    String toJava();

    /** The world's input, with edge targets resolved by {@code resolve} (a handle's id, ...). */
    Input resolve(ToLongFunction<ModelRef> resolve);

    /** A palette value or a component definition (its default); never an edge. */
    record Given(Input input) implements ModelInput {
        public Given {
            Objects.requireNonNull(input, "input");
            if (input instanceof RelationshipValue edge) {
                throw new IllegalArgumentException("edge " + edge + " names a target id: use ModelOp.edge(...)");
            }
        }

        @Override
        public String toJava() {
            return ModelSource.input(input);
        }

        @Override
        public Input resolve(ToLongFunction<ModelRef> resolve) {
            return input;
        }
    }

    /**
     * An edge of a model relationship to a referenced target; {@code payload} is the edge's record with a target
     * of 0 ({@code Spring} or {@code Loan}), or {@code null} for {@code REL.to(target)}.
     */
    record EdgeTo(BaseRelationship<?> relationship, ModelRef target, Object payload) implements ModelInput {
        public EdgeTo {
            Objects.requireNonNull(relationship, "relationship");
            Objects.requireNonNull(target, "target");
            if (payload != null && !(relationship == ModelComponents.SPRING && payload instanceof Spring)
                    && !(relationship == ModelComponents.LOAN && payload instanceof Loan)) {
                throw new IllegalArgumentException("payload " + payload + " does not fit " + relationship.name());
            }
        }

        @Override
        public String toJava() {
            return "edge(" + ModelSource.constant(relationship) + ", " + target.toJava()
                    + (payload == null ? "" : ", " + ModelSource.value(payload)) + ")";
        }

        @Override
        public RelationshipValue resolve(ToLongFunction<ModelRef> resolve) {
            return to(resolve.applyAsLong(target));
        }

        /** The world's edge to a resolved target. */
        RelationshipValue to(long id) {
            if (payload instanceof Spring s) {
                return ModelComponents.SPRING.of(new Spring(id, s.stiffness(), s.coils()));
            }
            if (payload instanceof Loan loan) {
                return ModelComponents.LOAN.of(new Loan(id, loan.amount()));
            }
            return relationship instanceof Relationship plain ? plain.to(id)
                    : ((RelationshipDefinition<?>) relationship).to(id);
        }
    }

    /** Wraps the arguments of a factory: {@link Input}s become {@link Given}, edges stay. */
    static List<ModelInput> of(Object... inputs) {
        List<ModelInput> list = new ArrayList<>(inputs.length);
        for (Object input : inputs) {
            list.add(switch (input) {
                case ModelInput given -> given;
                case Input plain -> new Given(plain);
                case null -> throw new NullPointerException("input");
                default -> throw new IllegalArgumentException("not an input: " + input);
            });
        }
        return List.copyOf(list);
    }

    /** The world's inputs, edges resolved. */
    static Input[] resolveAll(List<ModelInput> inputs, ToLongFunction<ModelRef> resolve) {
        Input[] resolved = new Input[inputs.size()];
        for (int i = 0; i < resolved.length; i++) {
            resolved[i] = inputs.get(i).resolve(resolve);
        }
        return resolved;
    }
}
