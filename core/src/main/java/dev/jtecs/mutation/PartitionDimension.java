package dev.jtecs.mutation;

import dev.jtecs.component.TagComponent;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;

/**
 * A partition dimension: a named set of tags of which an entity holds at most one, changed with
 * {@code World.setTag} and {@code World.unsetTag}. A dimension of one tag (arity 1) is a presence dimension: the
 * tag is on or off. A dimension of two or more tags is a multi-variant dimension: {@code setTag} switches the
 * variant and there is no {@code unsetTag}. Declare it on a world with {@code World.declarePartition}.
 *
 * <p>Each tag has a value, its 1-based position in the declaration; in a presence dimension "off" counts as 0.
 * When two operations on one dimension of one entity meet in one submission and the world resolves rather than
 * raises, the operation of the higher value stays.
 */
public final class PartitionDimension {
    private final String name;
    private final List<TagComponent> tags;

    private PartitionDimension(String name, List<TagComponent> tags) {
        this.name = name;
        this.tags = tags;
    }

    /**
     * A presence dimension (arity 1): {@code setTag(tag)} turns it on, {@code unsetTag(tag)} off.
     *
     * @throws IllegalArgumentException when the name is blank
     */
    public static PartitionDimension presence(String name, TagComponent tag) {
        Objects.requireNonNull(tag, "tag");
        return new PartitionDimension(requireName(name), List.of(tag));
    }

    /**
     * A multi-variant dimension (arity at least 2) whose variants have the values 1, 2, ... in this order.
     *
     * @throws IllegalArgumentException when the name is blank, fewer than two tags are given or a tag repeats
     */
    public static PartitionDimension variants(String name, TagComponent... tags) {
        String checked = requireName(name);
        Objects.requireNonNull(tags, "tags");
        if (tags.length < 2) {
            throw new IllegalArgumentException("dimension " + name + ": a multi-variant dimension needs at least 2 "
                    + "tags, got " + tags.length + "; use PartitionDimension.presence for one");
        }
        IdentityHashMap<TagComponent, Boolean> seen = new IdentityHashMap<>();
        List<TagComponent> list = new ArrayList<>(tags.length);
        for (int i = 0; i < tags.length; i++) {
            TagComponent tag = Objects.requireNonNull(tags[i], "tags[" + i + "]");
            if (seen.put(tag, Boolean.TRUE) != null) {
                throw new IllegalArgumentException("dimension " + name + ": tag " + tag.name() + " appears twice");
            }
            list.add(tag);
        }
        return new PartitionDimension(checked, List.copyOf(list));
    }

    private static String requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a partition dimension name must not be blank, got \"" + name + "\"");
        }
        return name;
    }

    public String name() {
        return name;
    }

    /** How many tags the dimension has: 1 for a presence dimension. */
    public int arity() {
        return tags.size();
    }

    public boolean isPresence() {
        return tags.size() == 1;
    }

    /** The tags in declaration order. */
    public List<TagComponent> tags() {
        return tags;
    }

    /**
     * A tag's value: its 1-based position in the declaration.
     *
     * @throws IllegalArgumentException when the tag is not one of this dimension's
     */
    public int valueOf(TagComponent tag) {
        int at = tags.indexOf(Objects.requireNonNull(tag, "tag"));
        if (at < 0) {
            throw new IllegalArgumentException("tag " + tag.name() + " is not in partition dimension " + name);
        }
        return at + 1;
    }

    @Override
    public String toString() {
        return "PartitionDimension[" + name + ": " + tags.stream().map(TagComponent::name).toList() + "]";
    }
}
