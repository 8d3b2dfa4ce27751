package dev.gslb.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A file read by its sections: each key bound to its section's type, errors at their line as for one record. */
class SectionsBinderTest {
    record Listen(Duration idle) {}

    record Item(String name, Integer ratio) {}

    static final Section<Listen> DNS = Section.of("dns", Listen.class, folder -> new Listen(Duration.ofSeconds(1)));
    static final Section<List<Item>> ITEMS = Section.list("items", Item.class);
    static final Section<Path> STORE = Section.of("store", Path.class, folder -> folder.resolve("var"));

    private final SettingsReader reader = new SettingsReader(new SettingsModule().sections(List.of(DNS, ITEMS, STORE)));

    private SectionValues read(String yaml) throws SettingsException {
        return reader.read("t.yaml", yaml, Path.of("/etc/gslb"), SectionValues.class)
                .value();
    }

    @Test
    void eachSectionBindsToItsTypeAndAnAbsentOneIsItsDefault() throws Exception {
        SectionValues v = read("dns: {idle: 5s}\nitems:\n  - {name: a, ratio: 2}\n");
        assertThat(v.get(DNS).idle()).hasSeconds(5);
        assertThat(v.get(ITEMS)).containsExactly(new Item("a", 2));
        assertThat(v.get(STORE)).as("relative to the file's folder").isEqualTo(Path.of("/etc/gslb/var"));
        SectionValues empty = read("dns:\nitems:\n");
        assertThat(empty.get(DNS).idle()).as("a key with nothing after it").hasSeconds(1);
        assertThat(empty.get(ITEMS)).isEmpty();
        assertThatThrownBy(() -> empty.get(Section.list("other", Item.class)))
                .hasMessage("'other' is not a section of this file");
    }

    @Test
    void errorsNameLineColumnAndWhatIsWrong() {
        assertThatThrownBy(() -> read("dns: {}\nx: 1\n"))
                .hasMessage("t.yaml:2:1: unknown key 'x' in the configuration; expected one of [dns, items, store]");
        assertThatThrownBy(() -> read("items:\n  - {name: a}\n  - {name: b, ratio: many}\n"))
                .hasMessage("t.yaml:3:15: items[1].ratio must be a whole number, not 'many'");
        assertThatThrownBy(() -> read("items:\n  - {name: a, size: 1}\n"))
                .hasMessageStartingWith("t.yaml:2:15: unknown key 'size' in items[0]");
        assertThatThrownBy(() -> read("items: {a: 1}\n")).hasMessage("t.yaml:1:1: items must be a list");
        assertThatThrownBy(() -> read("items:\n  -\n")).hasMessage("t.yaml:2:4: items[0] has an empty value");
        assertThatThrownBy(() -> read("dns: {}\ndns: {}\n"))
                .hasMessage("t.yaml:2:1: key 'dns' appears twice in the configuration");
        assertThatThrownBy(() -> read("just text\n"))
                .hasMessage("t.yaml:1:1: the configuration must be a mapping of key: value");
        assertThatThrownBy(() -> read("~\n")).hasMessage("t.yaml: the file is empty");
    }

    @Test
    void aSectionIsListedOnce() {
        assertThatThrownBy(() -> new SettingsModule().sections(List.of(DNS, ITEMS, DNS)))
                .hasMessage("section dns is listed twice");
    }
}
