#!/usr/bin/env bash
# Measures this CPU and writes the results where they are kept, one folder
# per CPU: benches/results/<vendor>-<family>-<model>/<tier>/ (e.g.
# benches/results/intel-6-207/avx512/), the plots in
# benches/plots/<cpu-id>/, and the headline table of BENCHMARKS.md in
# benches/results/<cpu-id>/headline.md. Every file starts with the same
# header: CPU model name, CPUID family/model/stepping, the flags that choose
# kernels (avx512f/bw/vl, avx2, bmi2, erms, fsrm, sse4a), hypervisor, kernel, tier and
# its RUSTFLAGS, GLIBC_TUNABLES, rustc, glibc, git commit, date, command.
#
#   bash benches/record.sh                          # avx512 avx2 sse; every suite below; vhost L3
#   TIERS=avx2 VHOST="l3 dram" bash benches/record.sh
#
# Environment: TIERS (default "avx512 avx2 sse"; avx512 is -C
# target-cpu=native, see benches/tier-flags.sh), SUITES (examples/sizes.rs
# --suite, default copy,copy-unaligned,set,set-unaligned,mixed,move,cmp,
# const,const-unaligned,const-set,const-set-unaligned),
# LARGE (default 1: also the large suite, 256 KiB-256 MiB, --reps
# LARGE_REPS, default 9; empty: not), SYMBOLS (default 1: also the
# exported symbols, a second build with --features c-symbols whose copy,
# set, move and cmp suites go to <tier>/symbols/; empty: not), VHOST (rings for
# examples/vhost_enqueue: l3 = --mib 16, dram = --mib 512; default l3;
# empty: none), SIZES_ARGS and VHOST_ARGS (extra options), CPU (core to pin,
# default 1), GLIBC_WIDTH (default `tier`: glibc held to the tier's width
# on the avx2 and sse tiers, as issue 10 §4 asks; `ifunc`: glibc as this
# CPU picks it), DEST (default benches/results/<cpu-id>; any other DEST
# keeps its plots in DEST/plots), BENCH_TARGET
# (build folders, one per tier, default target/bench-record), BASE_TARGET
# (a release target folder whose dependencies each new build folder starts
# from, e.g. ci/test.sh's target-ci/base-release).
#
# The DPDK column needs DPDK's headers: the script fetches them
# (benches/dpdk/fetch-headers.sh) and fails when it cannot.
#
# Builds: the tier flags (benches/tier-flags.sh) reach fastmem and its
# examples only, through ci/tier-rustc, so the dependencies are built once
# per folder; fastmem is rebuilt for every run, because cargo does not see
# the wrapper's flags in its fingerprints.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TIERS=${TIERS:-"avx512 avx2 sse"}
SUITES=${SUITES:-copy,copy-unaligned,set,set-unaligned,mixed,move,cmp,const,const-unaligned,const-set,const-set-unaligned}
LARGE=${LARGE-1}
LARGE_REPS=${LARGE_REPS:-9}
SYMBOLS=${SYMBOLS-1}
VHOST=${VHOST-l3}
CPU=${CPU:-1}
export GLIBC_WIDTH=${GLIBC_WIDTH:-tier}
BENCH_TARGET=${BENCH_TARGET:-$ROOT/target/bench-record}
source benches/tier-flags.sh

field() { grep -m1 "^$1[[:space:]]*:" /proc/cpuinfo | sed 's/^[^:]*:[[:space:]]*//'; }
vendor=$(field vendor_id)
case $vendor in
    GenuineIntel) v=intel ;;
    AuthenticAMD) v=amd ;;
    *) v=$(tr '[:upper:]' '[:lower:]' <<<"$vendor") ;;
esac
family=$(field "cpu family")
model=$(field model)
stepping=$(field stepping)
CPU_ID=$v-$family-$model
DEST=${DEST:-$ROOT/benches/results/$CPU_ID}
# With a DEST of its own, a trial run keeps its plots there too.
if [[ $DEST == "$ROOT/benches/results/$CPU_ID" ]]; then
    PLOTS=$ROOT/benches/plots/$CPU_ID
else
    PLOTS=$DEST/plots
fi
have=()
for f in avx512f avx512bw avx512vl avx2 bmi2 erms fsrm sse4a hypervisor; do
    grep -m1 '^flags' /proc/cpuinfo | grep -qw "$f" && have+=("$f")
done
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src benches examples Cargo.toml || commit+="+uncommitted changes"

export DPDK_ROOT
DPDK_ROOT=$(bash benches/dpdk/fetch-headers.sh)

# header TIER RUSTFLAGS TUNABLES COMMAND: the lines every file starts with.
header() {
    cat <<HDR
cpu: $(field "model name")
cpu-id: $CPU_ID (CPUID vendor $vendor, family $family, model $model, stepping $stepping)
cpu flags: ${have[*]}
cores: $(nproc) online; pinned to core $CPU (taskset -c $CPU)
kernel: $(uname -sr)
glibc: $(getconf GNU_LIBC_VERSION)
rustc: $(rustc -V)
dpdk: rte_memcpy from Debian's libdpdk-dev, $(zcat "$DPDK_ROOT"/usr/share/doc/libdpdk-dev/changelog.Debian.gz | head -1 | cut -d' ' -f1-2), C compiled by $(cc --version | head -1)
tier: $1 (RUSTFLAGS for fastmem and the tools: "$2")
GLIBC_TUNABLES: "${3}"
commit: $commit
date: $(date -u +%Y-%m-%dT%H:%MZ)
command: $4
note: medians of interleaved repetitions, from one run; the machine may be shared
  (other processes compiling): compare columns within one table (ratios), not
  figures across files.
HDR
}

# fenced COMMAND...: its output as a markdown text block.
fenced() {
    echo '```text'
    "$@"
    echo '```'
    echo
}

# run_sizes BIN OUT MD SUITES [ARGS...]: one sizes run into OUT, its
# output in OUT/MD (appended), its CSVs headed like every file; for the
# tier the loop below is at (its $tier, $flags and $tun).
run_sizes() {
    local b=$1 o=$2 md=$3 suites=$4
    shift 4
    mkdir -p "$o"
    # shellcheck disable=SC2086  # the extra arguments are word lists
    local c="GLIBC_TUNABLES=\"$tun\" taskset -c $CPU $(basename "$b") --suite $suites $* ${SIZES_ARGS:-}"
    {
        fenced header "$tier" "$flags" "$tun" "$c"
        # shellcheck disable=SC2086
        GLIBC_TUNABLES=$tun taskset -c "$CPU" "$b" --suite "$suites" --out "$o" "$@" ${SIZES_ARGS:-}
    } | tee -a "$o/$md"
    for csv in "$o"/*.csv; do
        grep -q '^# cpu:' "$csv" && continue
        { header "$tier" "$flags" "$tun" "$c (see $md)" | sed 's/^/# /'; cat "$csv"; } >"$csv.tmp"
        mv "$csv.tmp" "$csv"
    done
}

for tier in $TIERS; do
    bench_tier_skipped "$tier" && continue
    flags="$(bench_tier_flags "$tier") $BENCH_COMMON_FLAGS"
    dir=$BENCH_TARGET/$tier
    if [[ ! -d $dir && -n ${BASE_TARGET:-} ]]; then
        mkdir -p "$BENCH_TARGET"
        cp -a "$BASE_TARGET" "$dir"
    fi
    echo "=== $tier: fastmem built with \"$flags\""
    CARGO_TARGET_DIR=$dir cargo clean --release -p fastmem 2>/dev/null || true
    CARGO_TARGET_DIR=$dir RUSTC_WRAPPER=$ROOT/ci/tier-rustc FASTMEM_TIER_RUSTFLAGS="$flags" \
        cargo build --release --quiet --example sizes --example vhost_enqueue
    bin=$dir/release/examples
    out=$DEST/$tier
    # A tier's files are all from this run: none left from an earlier one.
    rm -rf "$out"
    mkdir -p "$out"
    tun=$(glibc_tunables "$tier")
    printf '# %s, tier %s: examples/sizes.rs\n\n' "$CPU_ID" "$tier" >"$out/sizes.md"
    run_sizes "$bin/sizes" "$out" sizes.md "$SUITES"
    if [[ -n $LARGE ]]; then
        run_sizes "$bin/sizes" "$out" sizes.md large --reps "$LARGE_REPS"
    fi
    if [[ -n $SYMBOLS ]]; then
        [[ -d $dir-symbols ]] || cp -a "$dir" "$dir-symbols"
        CARGO_TARGET_DIR=$dir-symbols cargo clean --release -p fastmem 2>/dev/null || true
        CARGO_TARGET_DIR=$dir-symbols RUSTC_WRAPPER=$ROOT/ci/tier-rustc FASTMEM_TIER_RUSTFLAGS="$flags" \
            cargo build --release --quiet --features c-symbols --example sizes
        mkdir -p "$out/symbols"
        printf '# %s, tier %s: examples/sizes.rs built with --features c-symbols\n\n' "$CPU_ID" "$tier" >"$out/symbols/sizes.md"
        run_sizes "$dir-symbols/release/examples/sizes" "$out/symbols" sizes.md copy,copy-unaligned,set,set-unaligned,move,cmp
    fi
    for ring in $VHOST; do
        case $ring in
            l3) mib=16 ;;
            dram) mib=512 ;;
            *) echo "unknown VHOST ring $ring (l3 or dram)" >&2; exit 2 ;;
        esac
        cmd="GLIBC_TUNABLES=\"$tun\" taskset -c $CPU vhost_enqueue --mib $mib ${VHOST_ARGS:-}"
        {
            echo "# $CPU_ID, tier $tier: examples/vhost_enqueue.rs, $ring ring"
            echo
            fenced header "$tier" "$flags" "$tun" "$cmd"
            # shellcheck disable=SC2086
            GLIBC_TUNABLES=$tun taskset -c "$CPU" "$bin/vhost_enqueue" --mib "$mib" ${VHOST_ARGS:-} | fenced cat
        } | tee "$out/vhost-$ring.md"
    done
    # The plots go beside the other plots (BENCHMARKS.md shows them); the
    # overlapping moves', the constant sizes' and the symbols' sweeps stay
    # in their CSVs.
    mkdir -p "$PLOTS"
    rm -f "$out"/*-move-up*.svg "$out"/*-move-down*.svg "$out"/*-const*.svg "$out"/symbols/*.svg
    for svg in "$out"/*.svg; do
        [[ -e $svg ]] && mv "$svg" "$PLOTS/"
    done
done
# The headline table of BENCHMARKS.md, from every tier measured so far.
{
    echo "# $CPU_ID: headline (speed-ups of fastmem; benches/headline.py)"
    echo
    fenced header "${TIERS// /, }" "see each tier's files" "see each tier's files" "bash benches/record.sh"
    python3 benches/headline.py "$DEST"
} >"$DEST/headline.md"
echo "results: $DEST; plots: $PLOTS"
