#!/usr/bin/env bash
# ci/test.sh: the one test command. `.ci/run` runs it; run it from anywhere.
#
# For each kernel tier the CPU can run, the whole suite (unit, integration,
# bench and example targets, and doctests) in debug and in release, each in
# a target directory of its own, with the compiled kernel asserted; clippy
# with warnings denied for every tier; rustfmt; rustdoc with warnings denied;
# the no_std consumer for every tier; the benchmark experiments (the tuning
# patch and the generic.rs A/B script) checked on copies of the tree; the
# citations of BENCHMARKS.md's and the notebook's sections (ci/citations.py);
# then the extra checks listed in EXTRA_STEPS. Every step runs even after a
# failure; the script prints a timing summary and exits non-zero if any
# step failed.
#
# Environment:
#   TIERS="sse avx2"   run only these tiers (default: all nine)
#   FEATURE_SETS="default c-symbols"
#                      run each tier's suite once per cargo feature set
#                      (default: both); `default` is no extra feature
#   FAIL_FAST=1        stop at the first failed step
#   CI_TARGET=DIR      where builds and logs go (default: target-ci/)
#   CPUINFO=FILE       read CPU flags from FILE instead of /proc/cpuinfo
#   KEEP_BUILDS=1      keep each run's target directory (by default it is
#                      removed once the run is counted: the 44 runs' builds
#                      came to 17 GB, and a CI machine ran out of disk)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
OUT=${CI_TARGET:-$ROOT/target-ci}
LOGS=$OUT/logs
mkdir -p "$LOGS"

ALL_TIERS="sse sse4.2 avx2 avx512 avx512-nomask portable native mixed sse-mixed paired narrow"
CALLER_TIERS=${TIERS:-}
TIERS=${TIERS:-$ALL_TIERS}
# c-symbols: fastmem exports memcpy and memset, so every copy and fill in
# the test binaries, std's own included, runs through fastmem.
FEATURE_SETS=${FEATURE_SETS:-"default c-symbols"}

# Clean builds run once; incremental state would only cost time.
export CARGO_INCREMENTAL=0 CARGO_TERM_COLOR=never
# Tier flags reach fastmem's own crates only; see ci/tier-rustc.
export RUSTC_WRAPPER=$ROOT/ci/tier-rustc
unset RUSTFLAGS RUSTDOCFLAGS CARGO_ENCODED_RUSTFLAGS FASTMEM_TIER_RUSTFLAGS

# The tier table (flags, CPU check, expected kernel) is shared with the
# other CI scripts.
source ci/tiers.sh

# ---------------------------------------------------------------------------
# Steps: each runs in a subshell with `set -e`, is timed, and is recorded.

STEP_NAMES=()
STEP_SECS=()
STEP_RESULTS=()
FAILED=()
START=$EPOCHREALTIME

step() {
    local name=$1 t0=$EPOCHREALTIME rc
    shift
    echo
    echo "=== $name"
    set +e
    (set -e; "$@")
    rc=$?
    set -e
    STEP_NAMES+=("$name")
    STEP_SECS+=("$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')")
    if ((rc == 0)); then
        STEP_RESULTS+=(ok)
    else
        STEP_RESULTS+=("FAILED (exit $rc)")
        FAILED+=("$name")
        echo "=== FAILED: $name (exit $rc)"
        if [[ ${FAIL_FAST:-} == 1 ]]; then
            exit 1
        fi
    fi
}

summary() {
    local i total
    total=$(awk -v a="$START" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
    echo
    echo "=== timing summary"
    for i in "${!STEP_NAMES[@]}"; do
        printf '%8ss  %-34s %s\n' "${STEP_SECS[$i]}" "${STEP_NAMES[$i]}" "${STEP_RESULTS[$i]}"
    done
    printf '%8ss  total\n' "$total"
    if [[ -n ${TIER_REPORT:-} ]]; then
        echo
        echo "=== tests per tier (test functions; cases checked by tests/suite's sweeps)"
        printf '%s' "$TIER_REPORT"
    fi
    echo
    if ((${#FAILED[@]})); then
        echo "ci/test.sh: ${#FAILED[@]} step(s) failed: ${FAILED[*]}"
    else
        echo "ci/test.sh: all steps passed"
    fi
    echo "tests: ${TOTAL_PASSED:-0} passed, ${TOTAL_FAILED:-0} failed"
}
trap summary EXIT

# discard DIR...: removes a finished run's build directories (its logs stay
# in $LOGS), unless KEEP_BUILDS=1. Each tier's debug build is about 0.5 GB
# and its release build 0.2 GB; kept, they filled a CI machine's disk
# halfway through the tiers ("No space left on device").
discard() {
    [[ ${KEEP_BUILDS:-} == 1 ]] || rm -rf "$@"
}

# ---------------------------------------------------------------------------
# What the steps do.

# Dependencies are built once per profile, into base-<profile>, without any
# tier flags (the wrapper only flags fastmem); each tier starts from a copy
# of it, with no fastmem artifacts, and builds fastmem with its own flags.
# Building the examples builds every dev-dependency but little of fastmem
# (were there no examples, the tiers would build the dependencies
# themselves: slower, still correct). `check` leaves what clippy needs.
build_base() {
    local profile=$1 args=()
    [[ $profile == release ]] && args=(--release)
    export CARGO_TARGET_DIR=$OUT/base-$profile
    cargo build "${args[@]}" --examples
    if [[ $profile == debug ]]; then
        cargo check --examples
    fi
    cargo clean "${args[@]}" -p fastmem
}

# run_name TIER PROFILE FEATURES: the name of one run's directory and logs.
run_name() {
    echo "$1-$2${3:+-$3}" | sed 's/-default$//'
}

# feature_args FEATURES: cargo's arguments for a feature set. (In debug,
# at opt-level 0, the C symbols take their unoptimised bodies: see
# src/symbols.rs; release runs test them on the kernel.)
feature_args() {
    case $1 in
        default) ;;
        c-symbols) echo --features c-symbols ;;
        *) echo "unknown feature set: $1" >&2; return 2 ;;
    esac
}

# run_tier TIER PROFILE FEATURES: the whole suite for one tier in one
# profile with one feature set.
run_tier() {
    local tier=$1 profile=$2 name args=()
    name=$(run_name "$1" "$2" "$3")
    local dir=$OUT/$name log=$LOGS/$name.log
    [[ $profile == release ]] && args=(--release)
    # shellcheck disable=SC2207
    args+=($(feature_args "$3"))
    rm -rf "$dir"
    cp -a "$OUT/base-$profile" "$dir"
    export CARGO_TARGET_DIR=$dir
    export FASTMEM_TIER_RUSTFLAGS RUSTDOCFLAGS FASTMEM_EXPECT_KERNEL FASTMEM_EXPECT_MIXED FASTMEM_EXPECT_NARROW FASTMEM_CASES_LOG
    FASTMEM_TIER_RUSTFLAGS=$(tier_rustflags "$tier")
    RUSTDOCFLAGS=$FASTMEM_TIER_RUSTFLAGS
    FASTMEM_EXPECT_KERNEL=$(tier_kernel "$tier")
    FASTMEM_EXPECT_MIXED=$(tier_mixed "$tier")
    FASTMEM_EXPECT_NARROW=$(tier_narrow "$tier")
    FASTMEM_CASES_LOG=$LOGS/$name.cases
    rm -f "$FASTMEM_CASES_LOG"
    echo "tier $tier ($profile, features: $3): flags '${FASTMEM_TIER_RUSTFLAGS}', expecting kernel $FASTMEM_EXPECT_KERNEL"
    {
        cargo test "${args[@]}" --all-targets
        cargo test "${args[@]}" --doc
    } 2>&1 | tee "$log"
    if [[ $profile == debug ]]; then
        # Code that a cfg removes is linted only in the tier that keeps it.
        cargo clippy "${args[@]}" --all-targets -- -D warnings
    fi
}

# run_nontemporal_small: the native tier, release, built with
# FASTMEM_NONTEMPORAL_MIN=64K, so that memcpy and memset hand over to the
# non-temporal loop at sizes the suite sweeps: exhaustive's
# nontemporal_threshold at 64 KiB (128 KiB for fills), and every sampled
# large size above it. The default threshold (32 MiB; 8 MiB in a build for
# Zen 1-3, such as this tier on one) is only crossed by that one test.
run_nontemporal_small() {
    local dir=$OUT/nontemporal-64k log=$LOGS/nontemporal-64k.log
    rm -rf "$dir"
    cp -a "$OUT/base-release" "$dir"
    CARGO_TARGET_DIR=$dir FASTMEM_TIER_RUSTFLAGS=$(tier_rustflags native) \
        FASTMEM_NONTEMPORAL_MIN=64K cargo test --release --lib --test suite 2>&1 | tee "$log"
}

# run_amd TIER [lint-only]: a build for AMD cores (`+sse4a`),
# where the kernels take choices no other build does: avx2-zen3 its
# string-instruction thresholds for Zen 1-3; avx2-zen4 (`+avx512f` with
# `--cfg fastmem_no_avx512`) loads first in its 65-128 B class
# (`Tuning::LOAD_FIRST`) and keeps its vectors apart (`Vector::JOINABLE`);
# avx512-zen4 moves overlapping ranges, compares, and copies unaligned
# ranges from 2 KiB in the AVX2 kernel's loop (`Tuning::MoveLoop`,
# `CompareLoop`, `UnalignedCopyLoop`); both AVX-512 builds keep the loop
# tail's two vectors at `n` and both copy loops (`TAIL_ENDS`,
# `ONE_COPY_LOOP`), and avx512-zen5 (`+avxvnni`) copies 64 B as one
# vector where the other AVX-512 builds take two halves
# (`HALVES_AT_WIDTH`); every one of them leaves the loop tail's middle
# vectors off the destination's lines (`TAIL_ON_LINES`). Clippy, then the
# library's and the suite's tests in release and in debug (where the
# kernels' preconditions are asserted), with FASTMEM_EXPECT_KERNEL set to
# `tier_kernel`'s answer and FASTMEM_EXPECT_CORE to the core the tier's
# name ends with (zen3, zen4, zen5). The caller runs this on a CPU with
# the kernel's vector features;
# the tests then run where the CPU has SSE4a (and AVX-VNNI for Zen 5), an
# AMD core, or where the test binaries hold none of those instructions
# (`foreign_instructions`), as on the Intel CPUs seen, where those
# tunings were otherwise never run; else a SKIP line, and the lint stands.
run_amd() {
    local tier=$1 kernel core=${1##*-} log=$LOGS/$1.log profile dir args bins foreign
    kernel=$(tier_kernel "$tier")
    rm -f "$LOGS/$tier.skip" "$log" "$LOGS/$tier.cases"
    export CARGO_TARGET_DIR FASTMEM_TIER_RUSTFLAGS
    FASTMEM_TIER_RUSTFLAGS=$(tier_rustflags "$tier")
    for profile in release debug; do
        dir=$OUT/$tier-$profile
        args=()
        [[ $profile == release ]] && args=(--release)
        rm -rf "$dir"
        cp -a "$OUT/base-$profile" "$dir"
        CARGO_TARGET_DIR=$dir
        if [[ $profile == release ]]; then
            cargo clippy --all-targets -- -D warnings
            [[ ${2:-} == lint-only ]] && return 0
        fi
        bins=$(cargo test "${args[@]}" --lib --test suite --no-run 2>&1 |
            sed -n 's/^ *Executable .*(\(.*\))$/\1/p')
        [[ $(wc -w <<<"$bins") == 2 ]] || { echo "expected two test binaries, found: $bins" >&2; return 1; }
        # shellcheck disable=SC2086
        foreign=$(foreign_instructions $bins)
        if [[ -n $foreign ]]; then
            echo "SKIP $tier: its $profile test binaries hold instructions this CPU lacks (first lines below); linted only"
            head -n 5 <<<"$foreign"
            echo "SKIP $tier: instructions this CPU lacks" >"$LOGS/$tier.skip"
            return 0
        fi
        echo "$tier ($profile): no SSE4a or AVX-VNNI instruction that this CPU lacks in the test binaries; running them"
        FASTMEM_EXPECT_KERNEL=$kernel FASTMEM_EXPECT_CORE=$core FASTMEM_CASES_LOG=$LOGS/$tier.cases \
            cargo test "${args[@]}" --lib --test suite 2>&1 | tee -a "$log"
    done
}

# The control for foreign_instructions: an object that holds an SSE4a
# instruction (`extrq`) must be caught on a CPU without SSE4a; on one with
# it, nothing is foreign.
foreign_control() {
    local dir=$OUT/foreign-control found
    mkdir -p "$dir"
    printf 'void f(void) { __asm__("extrq $8, $0, %%xmm0"); }\n' >"$dir/extrq.c"
    cc -c "$dir/extrq.c" -o "$dir/extrq.o"
    found=$(foreign_instructions "$dir/extrq.o")
    if cpu_has sse4a; then
        [[ -z $found ]] || { echo "flagged on a CPU with SSE4a: $found" >&2; return 1; }
        echo "control: the CPU has SSE4a, and extrq is not flagged"
    else
        grep -q extrq <<<"$found" || { echo "extrq not flagged on a CPU without SSE4a" >&2; return 1; }
        echo "control: extrq flagged on a CPU without SSE4a: $found"
    fi
}

# compile_only TIER: for a tier this CPU cannot run, what needs no such
# CPU: clippy with warnings denied (every feature set) and a release build
# of every test, bench and example target, so that code only that tier
# compiles is still type-checked, linted and built.
compile_only() {
    local tier=$1 dir=$OUT/$1-compile-only features
    rm -rf "$dir"
    cp -a "$OUT/base-debug" "$dir"
    export CARGO_TARGET_DIR=$dir FASTMEM_TIER_RUSTFLAGS
    FASTMEM_TIER_RUSTFLAGS=$(tier_rustflags "$tier")
    for features in $FEATURE_SETS; do
        # shellcheck disable=SC2046
        cargo clippy $(feature_args "$features") --all-targets -- -D warnings
    done
    cargo test --release --all-targets --no-run
}

# count_tier NAME: adds the tier's test counts (from cargo's
# "test result:" lines) to the totals and one line to TIER_REPORT.
TIER_REPORT=""
TOTAL_PASSED=0
TOTAL_FAILED=0
count_tier() {
    local log=$LOGS/$1.log cases=$LOGS/$1.cases passed=0 failed=0 sum=0
    if [[ -f $log ]]; then
        read -r passed failed < <(awk '/^test result:/ { p += $4; f += $6 }
            END { print p + 0, f + 0 }' "$log")
    fi
    if [[ -f $cases ]]; then
        sum=$(awk '{ n += $3 } END { print n + 0 }' "$cases")
    fi
    TOTAL_PASSED=$((TOTAL_PASSED + passed))
    TOTAL_FAILED=$((TOTAL_FAILED + failed))
    TIER_REPORT+=$(printf '  %-28s %5s passed %3s failed %10s cases' \
        "$1" "$passed" "$failed" "$sum")$'\n'
}

fmt_check() {
    cargo fmt --check
}

doc_check() {
    CARGO_TARGET_DIR=$OUT/doc RUSTDOCFLAGS="-D warnings" cargo doc --no-deps
    CARGO_TARGET_DIR=$OUT/doc RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --features c-symbols
}

# nostd_check TIER: ci/nostd-consumer, a #![no_std] staticlib with its own
# panic handler and panic = "abort", links fastmem built for TIER. Were std
# anywhere in the graph, its panic handler would clash with the consumer's
# (E0152) and the build fail; the archive, which bundles every Rust crate
# linked, must also hold no std or alloc member. Deps here are tiny, so
# plain RUSTFLAGS are fine; with an explicit --target (the host's) they
# reach the target's crates only, not the build scripts, which run here:
# the check builds every tier, those this CPU cannot run included.
NOSTD=ci/nostd-consumer
HOST=$(rustc -vV | sed -n 's/^host: //p')
nostd_check() {
    local tier=$1 lib members symbols
    export CARGO_TARGET_DIR=$OUT/nostd-$tier RUSTFLAGS
    RUSTFLAGS=$(tier_rustflags "$tier")
    cargo build --release --target "$HOST" --manifest-path $NOSTD/Cargo.toml
    cargo tree --target "$HOST" --manifest-path $NOSTD/Cargo.toml -e normal
    lib=$CARGO_TARGET_DIR/$HOST/release/libfastmem_nostd_consumer.a
    members=$(ar t "$lib")
    if grep -E '^(std|alloc)-' <<<"$members"; then
        echo "the no_std consumer's archive links std or alloc (members above)" >&2
        return 1
    fi
    grep -q '^fastmem-' <<<"$members"
    symbols=$(nm "$lib")
    grep -q ' T consumer_memcpy_memset$' <<<"$symbols"
    echo "no std: $(grep -cE '^(core|compiler_builtins)-' <<<"$members") core/compiler_builtins members, none from std or alloc"
}

# The control for nostd_check: with `extern crate std` added to the
# consumer, the build must fail with the duplicate panic handler.
nostd_control() {
    local out
    export CARGO_TARGET_DIR=$OUT/nostd-control
    if out=$(cargo rustc --release --target "$HOST" --manifest-path $NOSTD/Cargo.toml -- --cfg nostd_consumer_pulls_std 2>&1); then
        echo "the consumer built with std in its graph: nostd_check cannot fail" >&2
        return 1
    fi
    grep -q 'E0152' <<<"$out" || { echo "$out" >&2; return 1; }
    echo "control: with std in the graph the build fails with E0152, as it should"
}

# benches/experiments/tuning-variants.patch is applied by hand for the
# tuning runs in benches/NOTEBOOK.md. It once went on applying cleanly while no
# longer building, unnoticed; so apply it to a copy of this tree and check
# the benchmark tool with it, for the avx512 and sse kernels (their variant
# lists differ; `cargo check` runs no fastmem code, so any CPU can check
# both). The tier flags go through ci/tier-rustc, not RUSTFLAGS: RUSTFLAGS
# would also compile the build scripts for AVX-512, and running those
# killed the step with SIGILL on a CPU without it (an AMD EPYC, Zen 3).
# benches/experiments/ab-generic.sh likewise edits a copy of the tree.
experiments_check() {
    local tree=$OUT/experiments/tree tier
    rm -rf "$tree"
    mkdir -p "$tree"
    git ls-files -z | tar --null -cf - -T - | tar -xf - -C "$tree"
    # The copy lies inside this repository's work tree (target-ci/), where
    # `git apply` would take the copy for a subdirectory of the repository
    # and skip every path outside it, silently: the check passed with no
    # patch applied while the patch had stopped applying. So no repository
    # is looked for above the copy, and the patch's new file must exist.
    (cd "$tree" && GIT_CEILING_DIRECTORIES=$(dirname "$tree") git apply benches/experiments/tuning-variants.patch)
    [ -f "$tree/src/variants.rs" ] || { echo "tuning-variants.patch: applied nothing" >&2; return 1; }
    for tier in avx512 sse; do
        (cd "$tree" && CARGO_TARGET_DIR=$OUT/experiments/$tier \
            FASTMEM_TIER_RUSTFLAGS=$(tier_rustflags "$tier") cargo check --release --example sizes)
    done
    # The A/B script for variants of src/generic.rs, with the current file
    # and each variant kept as a patch of it (benches/NOTEBOOK.md: "`amd-26-2`: the
    # smallest classes tested first", "... fills of 33-64 B under one
    # 64-byte mask", "... the SSE ladder to 256 B", "... the loop's
    # addressing", "... copies that read ahead"), which must still apply.
    local name variants=()
    for name in small-first fill-mask64 sse-noloop256 loop-pointers copy-read-ahead; do
        local v=$OUT/experiments/$name
        rm -rf "$v"
        mkdir -p "$v/src"
        cp src/generic.rs "$v/src/"
        (cd "$v" && GIT_CEILING_DIRECTORIES=$(dirname "$v") git apply "$ROOT/benches/experiments/$name.patch")
        ! cmp -s src/generic.rs "$v/src/generic.rs" || { echo "$name.patch: applied nothing" >&2; return 1; }
        variants+=("$v/src/generic.rs=${name//-/_}")
    done
    WORK=$OUT/experiments/ab BUILD_ONLY=1 TIERS="avx512 sse" \
        bash benches/experiments/ab-generic.sh src/generic.rs+src/large.rs=fm_same "${variants[@]}"
    # The whole-build A/B of the vhost tool, with a cfg build beside the
    # default, and a build from a named tree (this one).
    WORK=$OUT/experiments/ab-vhost BUILD_ONLY=1 \
        bash benches/experiments/ab-vhost.sh default= paired="--cfg fastmem_paired_blocks" "tree@$ROOT="
}

# package_check: what `cargo publish` would upload. The library builds
# from the package alone (cargo's verification, in target-ci/package), and
# the measured results and plots (benches/results, benches/plots, about
# 8 MB on disk) are not in it: with them it held 836 files, 7.8 MiB
# (1016 KiB compressed); without, 67 files, 1.4 MiB (439 KiB).
package_check() {
    local list
    export CARGO_TARGET_DIR=$OUT/package
    list=$(cargo package --list --allow-dirty)
    if grep -E '^benches/(results|plots)/' <<<"$list"; then
        echo "benchmark data in the package (above)" >&2
        return 1
    fi
    grep -qx 'src/lib.rs' <<<"$list"
    cargo package --allow-dirty
    echo "package: $(wc -l <<<"$list") files, $(du -h "$CARGO_TARGET_DIR"/package/fastmem-*.crate | cut -f1) compressed"
}

# ---------------------------------------------------------------------------
# Extra checks, owned by other parts of the project. Each script listed here
# runs as one step when it exists; add new ones to the list.
EXTRA_STEPS=(
    ci/asan.sh
    ci/valgrind.sh
    ci/freestanding.sh
    ci/codegen.sh
    ci/dpdk.sh
)

# ---------------------------------------------------------------------------
# The run.

echo "fastmem ci/test.sh: $(rustc -V), $(nproc) CPUs, tiers: $TIERS"
df -h "$OUT" | tail -n 1 | awk '{ print "disk: " $4 " free of " $2 " at " $6 }'

step "rustfmt" fmt_check
step "rustdoc -D warnings" doc_check
step "build deps (debug)" build_base debug
step "build deps (release)" build_base release
step "no_std control" nostd_control
step "experiments build" experiments_check
discard "$OUT/experiments"
# Every `BENCHMARKS.md, "<section>"` citation in the code, the scripts and
# the Markdown names a section of BENCHMARKS.md or benches/NOTEBOOK.md
# (four named none when this check was written).
step "citations" python3 ci/citations.py
step "package" package_check
discard "$OUT/package"

for tier in $TIERS; do
    flag=$(tier_cpu_feature "$tier")
    if [[ -n $flag ]] && ! cpu_has "$flag"; then
        echo "SKIP $tier: CPU lacks $flag (its tests; it is still compiled and linted)"
        TIER_REPORT+="  SKIP $tier: CPU lacks $flag"$'\n'
        step "$tier compile only" compile_only "$tier"
        step "no_std $tier" nostd_check "$tier"
        discard "$OUT/$tier-compile-only" "$OUT/nostd-$tier"
        continue
    fi
    for features in $FEATURE_SETS; do
        for profile in debug release; do
            name=$(run_name "$tier" "$profile" "$features")
            step "$name" run_tier "$tier" "$profile" "$features"
            count_tier "$name"
            discard "$OUT/$name"
        done
    done
    step "no_std $tier" nostd_check "$tier"
    discard "$OUT/nostd-$tier"
done
step "native, FASTMEM_NONTEMPORAL_MIN=64K" run_nontemporal_small
discard "$OUT/nontemporal-64k"
step "foreign instructions control" foreign_control
discard "$OUT/foreign-control"
for tier in avx2-zen3 avx2-zen4 avx512-zen4 avx512-zen5; do
    feature=$(tier_cpu_feature "$tier")
    if cpu_has "$feature"; then
        step "$tier" run_amd "$tier"
        if [[ -f $LOGS/$tier.skip ]]; then
            TIER_REPORT+="  $(cat "$LOGS/$tier.skip")"$'\n'
        else
            count_tier "$tier"
        fi
    else
        echo "SKIP $tier: CPU lacks $feature (its tests; it is still linted)"
        TIER_REPORT+="  SKIP $tier: CPU lacks $feature"$'\n'
        step "$tier clippy" run_amd "$tier" lint-only
    fi
    discard "$OUT/$tier-release" "$OUT/$tier-debug"
done
discard "$OUT/nostd-control"

# The extra scripts name a tier by the kernel it compiles (sse4.2 builds
# the sse kernel, native the widest this CPU has), and run their own list
# unless the caller chose tiers.
extra_tiers=(-u TIERS)
if [[ -n $CALLER_TIERS ]]; then
    kernels=""
    for tier in $CALLER_TIERS; do
        kernel=$(tier_kernel "$tier")
        [[ " $kernels " == *" $kernel "* ]] || kernels+="${kernels:+ }$kernel"
    done
    extra_tiers=("TIERS=$kernels")
fi

for script in "${EXTRA_STEPS[@]}"; do
    if [[ -f $script ]]; then
        # In the environment the script was called with, not the tier
        # machinery's.
        step "$script" env -u RUSTC_WRAPPER -u CARGO_INCREMENTAL "${extra_tiers[@]}" bash "$script"
    else
        echo "($script not present, skipped)"
    fi
done

((${#FAILED[@]} == 0))
