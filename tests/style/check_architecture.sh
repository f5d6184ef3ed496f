#!/bin/sh
# check_architecture.sh: the part graph (docs/architecture.md). Fails when a part includes a
# part above it, or another part's private header. Usage: check_architecture.sh SOURCE_DIR
#
# Parts from top to bottom; a part may include only the public headers of the parts listed
# after it on its line:
#   cli       -> analyzer interpose detect report evlog rules util
#   analyzer  -> report rules util       (analyzer/policy/ is inside analyzer)
#   interpose -> detect report evlog rules util
#   detect    -> report evlog rules util
#   report    -> evlog rules util
#   evlog     -> rules util
#   rules     -> (nothing)
#   util      -> (nothing)
# Known violations still to remove are listed in KNOWN below, each with the step that removes
# it; a violation that is not listed fails the test, and so does a listed one that is gone
# (so the list only shrinks).
set -u
root=${1:?usage: check_architecture.sh SOURCE_DIR}
cd "$root" || exit 2

# The public header of each part (what other parts may include).
public_of() {
    case $1 in
    rules.h | rules.def | cuda_api.def | host_memory.def | readback.def | hints.def) echo rules ;;
    report.h | formats.def) echo report ;;
    detect.h | detect_options.def) echo detect ;;
    evlog.h) echo evlog ;;
    util.h | log.h | files.h | path.h | map.h | sha256.h) echo util ;;
    analyzer.h) echo analyzer ;;
    interpose.h | settings.def) echo interpose ;;
    *) echo "" ;;
    esac
}
allowed() { # FROM TO
    case "$1:$2" in
    cli:analyzer | cli:interpose | cli:detect | cli:report | cli:evlog | cli:rules | cli:util) return 0 ;;
    analyzer:report | analyzer:rules | analyzer:util) return 0 ;;
    interpose:detect | interpose:report | interpose:evlog | interpose:rules | interpose:util) return 0 ;;
    detect:report | detect:evlog | detect:rules | detect:util) return 0 ;;
    report:evlog | report:rules | report:util) return 0 ;;
    evlog:rules | evlog:util) return 0 ;;
    esac
    return 1
}
# FROM-file:header pairs that break the graph today, and the step that removes them.
KNOWN="
"
# Private headers of each part: included only inside the part.
private_part() {
    case $1 in
    report_int.h | html_page.h) echo report ;;
    detect_int.h | families.def) echo detect ;;
    internal.h | cuda_decls.h | policy.h | policy_int.h | ast.h | cache.h | checks.h | compdb.h | dataflow.h | flag_table.h | flags.h | jobs.h | scope.h | tu.h | checks.def) echo analyzer ;;
    args.h | capture.h | capture_int.h | finish_int.h | pointers.h | threads.h | python.h | store.h | symbolize.h | symcache.h) echo interpose ;;
    cli.h | options.h | options.def | commands.def) echo cli ;;
    *) echo "" ;;
    esac
}

status=0
seen=""
for part in cli analyzer interpose detect report evlog rules util; do
    files=$(find "$part" -name '*.c' -o -name '*.h' -o -name '*.def' | sort)
    for f in $files; do
        for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
            base=${h##*/}
            owner=$(public_of "$base")
            private=$(private_part "$base")
            if [ -n "$private" ] && [ "$private" != "$part" ]; then
                echo "$f: includes $h, a private header of $private/" >&2
                status=1
                continue
            fi
            [ -n "$owner" ] && [ "$owner" != "$part" ] || continue
            if allowed "$part" "$owner"; then
                continue
            fi
            if printf '%s\n' "$KNOWN" | grep -q "^$f:$base "; then
                seen="$seen $f:$base"
                continue
            fi
            echo "$f: part $part includes $h of $owner/, which is above it in the part graph" >&2
            status=1
        done
    done
done
# util/ depends on libc alone: no library's header (cJSON, libclang, libyaml, CUDA, libdw).
for f in $(find util -name '*.c' -o -name '*.h' | sort); do
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*<\([^>]*\)>.*/\1/p' "$f"); do
        case $h in
        cjson/* | clang-c/* | yaml.h | cuda* | cupti* | nvtx* | elfutils/* | dwarf.h | libdw*)
            echo "$f: includes <$h>: util/ depends on libc alone" >&2
            status=1
            ;;
        esac
    done
done
# Every known violation must still exist, so that the list shrinks as the code is mended.
for entry in $(printf '%s\n' "$KNOWN" | awk 'NF { print $1 }'); do
    case " $seen " in
    *" $entry "*) ;;
    *)
        echo "check_architecture.sh: '$entry' is no longer a violation: remove it from KNOWN" >&2
        status=1
        ;;
    esac
done
[ "$status" = 0 ] && echo "architecture: the part graph holds"
exit $status
