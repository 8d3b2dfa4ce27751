package dev.gslb.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.gslb.api.Json;
import dev.gslb.api.PeerStatus;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `gslb completion [bash|zsh]`: picocli's completion of the commands and options, and the names a
 * running server knows as values (wide IPs, pools, servers, data centers, links, peers), asked of
 * `gslb completion --names KIND` quietly, at most 3 s, kept 30 s: completing never waits on a
 * server that is not there. Registered for `gslb` and a checkout's `./gslb`.
 */
@Command(
        name = "completion",
        description = "Print the bash or zsh completion script: source <(gslb completion bash).",
        footerHeading = Manual.EXAMPLES,
        footer = {
            "  source <(gslb completion bash)        this shell (add it to ~/.bashrc to keep it)%n"
                    + "  gslb completion zsh > ~/.zfunc/_gslb  zsh (fpath+=~/.zfunc before compinit)%n"
                    + "  source <(./gslb completion bash)      a checkout: completes ./gslb too",
            Manual.ADMIN
        })
final class CompletionCommand implements Callable<Integer> {
    /** The kinds of names the completion asks for, as `gslb disable KIND` writes them, and peer. */
    static final List<String> KINDS = List.of("datacenter", "link", "vs", "pool", "member", "wideip", "peer");

    @Parameters(paramLabel = "SHELL", arity = "0..1", defaultValue = "bash", description = "bash (default) or zsh.")
    String shell;

    @Option(names = "--names", paramLabel = "KIND", hidden = true, description = "Print the server's names of KIND.")
    String names;

    @Mixin
    AdminOption admin;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (names != null) {
            return printNames();
        }
        String bash = AutoComplete.bash("gslb", spec.root().commandLine())
                .replace("complete -F _complete_gslb -o default gslb gslb.sh gslb.bash", VALUES);
        switch (shell) {
            case "bash" -> System.out.print(bash);
            case "zsh" -> System.out.print("#compdef gslb\nautoload -U +X bashcompinit && bashcompinit\n" + bash);
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "SHELL: bash or zsh, not " + shell);
        }
        return 0;
    }

    /** One name a line; nothing (exit 1) when the server cannot say: the completion then offers none. */
    private int printNames() {
        try {
            AdminClient client = admin.client();
            List<String> out;
            if (names.equals("peer")) {
                AdminClient.Reply r = client.get("/peer/list");
                out = r.ok()
                        ? Json.MAPPER.readValue(r.body(), new TypeReference<List<PeerStatus>>() {}).stream()
                                .map(PeerStatus::name)
                                .toList()
                        : List.of();
            } else {
                AdminClient.Reply r = client.get("/runtime/names?kind=" + LdnsCommand.enc(names));
                out = r.ok()
                        ? Json.MAPPER.readValue(r.body(), new TypeReference<List<String>>() {}).stream()
                                .map(n -> n.length() > 1 && n.endsWith(".") ? n.substring(0, n.length() - 1) : n)
                                .toList() // www.example.com, as the commands take it
                        : List.of();
            }
            out.forEach(System.out::println);
            return out.isEmpty() ? 1 : 0;
        } catch (Exception e) {
            return 1;
        }
    }

    /** Replaces picocli's `complete` line: values first, picocli's completion otherwise. */
    static final String VALUES = """
            # Values a running server knows, by what is being completed. The names come from
            # `gslb completion --names KIND` (with this line's --config, --admin, --token-file and
            # --state-dir), at most 3 s ($GSLB_COMPLETION_TIMEOUT), kept 30 s in a folder of this
            # user only.
            function _gslb_names() {
              local kind="$1" dir fwd=() i key
              dir="${XDG_RUNTIME_DIR:-${TMPDIR:-/tmp}/gslb-completion-$UID}"
              mkdir -p -m 700 "$dir" 2>/dev/null || return 0
              # /tmp is shared: a folder someone else made or may write in (or a link) would let them
              # plant names or point the cache's writes at another file, so only our own is used
              local mode
              mode="$(stat -c %a "$dir" 2>/dev/null)" || return 0
              [[ -O "$dir" && ! -L "$dir" ]] && (( (8#$mode & 8#022) == 0 )) || return 0
              for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                  --config|--admin|--token-file|--state-dir) fwd+=("${COMP_WORDS[i]}" "${COMP_WORDS[i+1]}") ;;
                esac
              done
              key="$(printf '%s\\n' "$kind" "${fwd[@]}" | cksum | cut -d' ' -f1)"
              local cache="$dir/gslb-names-$key"
              if [[ ! -f "$cache" ]] || (( $(date +%s) - $(stat -c %Y "$cache" 2>/dev/null || echo 0) > 30 )); then
                GSLB_NO_BUILD=1 timeout "${GSLB_COMPLETION_TIMEOUT:-3}" "${COMP_WORDS[0]}" completion --names "$kind" "${fwd[@]}" \\
                  >"$cache.$$" 2>/dev/null </dev/null
                mv -f "$cache.$$" "$cache" 2>/dev/null
              fi
              cat "$cache" 2>/dev/null
            }

            function _gslb_complete() {
              local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" kind="" words=() i
              for ((i = 1; i < COMP_CWORD; i++)); do
                case "${COMP_WORDS[i]}" in
                  --config|--admin|--token-file|--state-dir|--wide-ip|--dc|--datacenter|--reason|--for|--ldns|\\
                  --limit|--type|--ecs|--since|--role|--protocol|--format|--advertise|--join-token-file|--region|\\
                  --listen|--threads|--sync|--store|--origin|--names) ((i++)) ;;
                  -*) ;;
                  *) words+=("${COMP_WORDS[i]}") ;;
                esac
              done
              case "$prev" in
                --wide-ip) kind=wideip ;;
                --dc|--datacenter) kind=datacenter ;;
              esac
              if [[ -z "$kind" && "$cur" != -* ]]; then
                case "${words[*]}" in
                  disable|drain|enable)
                    COMPREPLY=($(compgen -W "datacenter link vs pool member wideip" -- "$cur")); return 0 ;;
                  "disable "*|"drain "*|"enable "*)
                    if (( ${#words[@]} == 2 )); then
                      case "${words[1]}" in
                        dc|data-center|datacenter) kind=datacenter ;;
                        server|virtual-server|vs) kind=vs ;;
                        wide-ip|wideip) kind=wideip ;;
                        link|pool|member) kind="${words[1]}" ;;
                      esac
                    fi ;;
                  resolve) kind=wideip ;;
                  "resume vs") kind=vs ;;
                  "peer remove") kind=peer ;;
                esac
              fi
              if [[ -n "$kind" ]]; then
                local IFS=$'\\n'
                COMPREPLY=($(compgen -W "$(_gslb_names "$kind")" -- "$cur"))
                (( ${#COMPREPLY[@]} > 0 )) && return 0
              fi
              _complete_gslb "$@"
            }

            complete -F _gslb_complete -o default gslb ./gslb
            """;
}
