#!/usr/bin/env bash
# Whole-build A/B of examples/vhost_enqueue: how "`amd-26-2`: two blocks a
# turn" in BENCHMARKS.md was measured.
#
#   bash benches/experiments/ab-vhost.sh NAME[@TREE]=FLAGS [NAME[@TREE]=FLAGS ...]
#
# Each NAME (letters, digits, _) is a build of the vhost tool for TIER
# (default avx512, as benches/tier-flags.sh builds it) with FLAGS added to
# its RUSTFLAGS ("" for the default build), from TREE where one is named
# (another checkout, e.g. `git worktree add /tmp/old HEAD~1`; default this
# one), e.g.
#
#   bash benches/experiments/ab-vhost.sh default= paired="--cfg fastmem_paired_blocks" \
#       loops32="-C llvm-args=-align-loops=32"
#
# The vhost tool times fastmem against DPDK and std inside one process; a
# code change moves all three columns, and the ring's speed drifts with the
# machine's other tenants, so the builds run in turn, ROUNDS times (default
# 5), and the medians of each build's dpdk/fm and std/fm ratios are
# printed per size. A second build of the same code with another layout
# (another FLAGS, e.g. `-C llvm-args=-align-loops=32`) tells a change from
# code placement.
#
# Environment: TIER, ROUNDS, MIB (ring per side, default 16; 512 for DRAM),
# SIZES (default 64,256,512,1024,1518,imix), CPU (default 1), WORK
# (default target/ab-vhost), BUILD_ONLY=1 (`cargo check` each build, run
# nothing: the check ci/test.sh makes so that the script does not rot).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
source benches/tier-flags.sh
TIER=${TIER:-avx512}
ROUNDS=${ROUNDS:-5}
MIB=${MIB:-16}
SIZES=${SIZES:-64,256,512,1024,1518,imix}
CPU=${CPU:-1}
WORK=${WORK:-$ROOT/target/ab-vhost}

if [ $# -eq 0 ]; then
    echo "usage: $0 NAME=FLAGS [NAME=FLAGS ...]" >&2
    exit 2
fi
names=()
dirs=()
for spec in "$@"; do
    name=${spec%%=*}
    extra=${spec#*=}
    tree=$ROOT
    if [[ $name == *@* ]]; then
        tree=${name#*@}
        name=${name%%@*}
    fi
    if [ "$name" = "$spec" ] || ! [[ $name =~ ^[A-Za-z0-9_]+$ ]] || [ ! -f "$tree/Cargo.toml" ]; then
        echo "ab-vhost: '$spec' is not NAME[@TREE]=FLAGS (NAME letters, digits, _; TREE a checkout)" >&2
        exit 2
    fi
    flags="$(bench_tier_flags "$TIER") $BENCH_COMMON_FLAGS $extra"
    # Cargo does not see FASTMEM_TIER_RUSTFLAGS in its fingerprints
    # (ci/tier-rustc), so each tier, flags and tree build in a folder of
    # their own: a NAME reused for another TIER or FLAGS ran the old
    # binary before.
    dir=$WORK/$name-$(printf '%s\n%s\n' "$flags" "$tree" | md5sum | cut -c1-12)
    names+=("$name")
    dirs+=("$dir")
    echo "=== $name: RUSTFLAGS=\"$flags\""
    verb=build
    [ "${BUILD_ONLY:-0}" = 1 ] && verb=check
    (cd "$tree" && CARGO_TARGET_DIR=$dir RUSTC_WRAPPER=$ROOT/ci/tier-rustc FASTMEM_TIER_RUSTFLAGS="$flags" \
        cargo $verb --release --quiet --example vhost_enqueue)
done
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
bench_tier_skipped "$TIER" && exit 0

mkdir -p "$WORK"
out=$WORK/rounds.txt
: >"$out"
tun=$(GLIBC_WIDTH=tier glibc_tunables "$TIER")
for r in $(seq "$ROUNDS"); do
    for i in "${!names[@]}"; do
        name=${names[$i]}
        GLIBC_TUNABLES=$tun taskset -c "$CPU" "${dirs[$i]}/release/examples/vhost_enqueue" \
            --mib "$MIB" --sizes "$SIZES" |
            awk -v n="$name" -F'|' '/^ +[0-9a-z]+ \|/ && $1 !~ /size/ {
                gsub(/ /, "", $1)
                if (NF >= 6) { d = $6; s = $5 } else { d = $4; s = "" }
                gsub(/[ x]/, "", d); gsub(/[ x]/, "", s)
                print n, $1, d, s }' >>"$out"
    done
    echo "round $r of $ROUNDS done"
done
# name size dpdk/fm std/fm -> medians per name and size (std/fm alone
# when the build has no DPDK column: then the fifth field is empty).
python3 - "$out" "${names[@]}" <<'EOF'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
names = sys.argv[2:]
sizes = []
for r in rows:
    if r[1] not in sizes:
        sizes.append(r[1])
def cell(name, size):
    got = [r for r in rows if r[0] == name and r[1] == size]
    if not got:
        return "-"
    if len(got[0]) < 4:  # no DPDK: the ratio field is std/fm
        return "std/fm %.2f" % statistics.median(float(r[2]) for r in got)
    d = [float(r[2]) for r in got]
    s = [float(r[3]) for r in got]
    return "%.2f [%.2f-%.2f] std/fm %.2f" % (statistics.median(d), min(d), max(d), statistics.median(s))
print("\nmedians over the rounds: dpdk/fm [range], std/fm (above 1: fastmem faster)")
print("| size | " + " | ".join(names) + " |")
print("|---|" + "---|" * len(names))
for size in sizes:
    print("| %s | %s |" % (size, " | ".join(cell(n, size) for n in names)))
EOF
