package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import dev.gslb.api.ErrorBody;
import dev.gslb.api.Json;
import dev.gslb.api.Refusal;
import dev.gslb.api.Removed;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * How every subcommand shows the admin API's answer: the JSON as is, or a human rendering of the
 * answer read into the same record the server wrote; errors on stderr.
 */
final class AdminReply {
    private AdminReply() {}

    static <T> int print(AdminClient.Reply reply, boolean json, Class<T> type, Consumer<T> human) throws IOException {
        return print(reply, json, Json.MAPPER.constructType(type), human);
    }

    static <T> int print(AdminClient.Reply reply, boolean json, TypeReference<T> type, Consumer<T> human)
            throws IOException {
        return print(reply, json, Json.MAPPER.constructType(type), human);
    }

    private static <T> int print(AdminClient.Reply reply, boolean json, JavaType type, Consumer<T> human)
            throws IOException {
        if (reply.ok()) {
            if (json) {
                System.out.print(reply.body());
            } else {
                human.accept(Json.MAPPER.readValue(reply.body(), type));
            }
            return 0;
        }
        if (json) {
            System.out.print(reply.body());
            return 1;
        }
        printError(reply);
        return 1;
    }

    /**
     * A removal (ldns delete, peer remove, token remove): "{@code done} WHAT", or {@code absent} when
     * there was none; with --json the answer as is (404: {"removed": false, ...}), exit 1 when none.
     */
    static int removed(AdminClient.Reply reply, boolean json, String done, String absent) throws IOException {
        if (json) {
            System.out.print(reply.body());
            return reply.ok() ? 0 : 1;
        }
        if (reply.status() == 404) {
            System.err.println(absent);
            return 1;
        }
        return print(reply, false, Removed.class, r -> System.out.println(done + " " + r.what()));
    }

    /** A refusal's every problem and what stays in service, or the one error message. */
    static void printError(AdminClient.Reply reply) throws IOException {
        Refusal refusal = Json.MAPPER.readValue(reply.body(), Refusal.class);
        if (refusal.errors() != null) {
            refusal.errors().forEach(System.err::println);
            if (refusal.kept() != null) {
                System.err.println("gslb: nothing was changed; " + refusal.kept());
            }
            return;
        }
        ErrorBody e = Json.MAPPER.readValue(reply.body(), ErrorBody.class);
        System.err.println("gslb: " + (e.error() != null ? e.error() : reply.body()));
    }
}
