package dev.gslb.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README and every page of the manual (docs/) link only to files a clone has. */
class DocumentationTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)#]+)(#[^)]*)?\\)");

    @Test
    void everyRelativeLinkPointsIntoTheRepository() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        for (Path doc : ManualTest.pages()) {
            assertThat(doc).exists();
            String text = Files.readString(doc);
            assertThat(text).as(doc + " points outside the repository").doesNotContain("../shared/");
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (target.startsWith("http://") || target.startsWith("https://")) {
                    continue;
                }
                Path resolved = doc.getParent().resolve(target).normalize();
                assertThat(resolved).as(doc + " links " + target).exists();
                assertThat(resolved.startsWith(root))
                        .as(doc + " links " + target + " outside the repository")
                        .isTrue();
            }
        }
    }
}
