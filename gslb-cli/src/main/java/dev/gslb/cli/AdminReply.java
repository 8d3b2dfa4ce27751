package dev.gslb.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gslb.cli.admin.AdminClient;
import dev.gslb.cli.admin.Json;
import java.io.IOException;

/** How every subcommand shows the admin API's answer: JSON as is, or a human rendering; errors on stderr. */
final class AdminReply {
    private AdminReply() {}

    /** Prints a reply: the JSON as is, or through {@code human}; a failure prints its errors. */
    static int print(AdminClient.Reply reply, boolean json, java.util.function.Consumer<JsonNode> human)
            throws IOException {
        JsonNode node = Json.MAPPER.readTree(reply.body());
        if (json) {
            System.out.print(reply.body());
        } else if (reply.ok()) {
            human.accept(node);
        }
        if (!reply.ok()) {
            if (!json) {
                if (node.has("errors")) {
                    node.get("errors").forEach(e -> System.err.println(e.asText()));
                } else {
                    System.err.println("gslb: " + node.path("error").asText(reply.body()));
                }
                if (node.has("kept")) {
                    System.err.println("gslb: nothing was changed; " + node.get("kept").asText());
                }
            }
            return 1;
        }
        return 0;
    }
}
