#!/usr/bin/env bash
# Runs the fuzz targets (see "Fuzzing" in the README).
#   Fuzz/run.sh fuzz SECONDS [TARGET...]   each target for SECONDS from its seeds; prints runs, exec/s, cov, ft
#   Fuzz/run.sh regressions [TARGET...]    each target once over its seeds and Fuzz/Crashers/<target>
# The binary is built first by `make fuzz-build`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=Fuzz/.build/release/webauthn-fuzz
ALL=(cbor authenticator-data attestation-object client-data options-json response-json cose-key x509 metadata ctaphid ctap-cbor)
mode=$1; shift
if [ "$mode" = fuzz ]; then seconds=$1; shift; fi
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=("${ALL[@]}")

for target in "${targets[@]}"; do
  crashers=Fuzz/Crashers/$target
  mkdir -p "$crashers"
  if [ "$mode" = regressions ]; then
    FUZZ_TARGET=$target "$BIN" -runs=0 "Fuzz/Corpus/$target" "$crashers" > ".build/fuzz-$target.log" 2>&1 \
      || { cat ".build/fuzz-$target.log"; echo "fuzz-regressions: $target FAILED"; exit 1; }
    echo "fuzz-regressions: $target: $(ls "Fuzz/Corpus/$target" "$crashers" | grep -vc ':$\|^$') inputs, no crash"
  else
    work=.build/fuzz-corpus/$target
    mkdir -p "$work"
    log=.build/fuzz-$target.log
    FUZZ_TARGET=$target nice -n 19 "$BIN" "$work" "Fuzz/Corpus/$target" -max_total_time="$seconds" \
      -print_final_stats=1 -artifact_prefix="$crashers/" -rss_limit_mb=4096 -report_slow_units=60 > "$log" 2>&1 || {
      tail -40 "$log"; echo "fuzz: $target found a crash, kept in $crashers"; exit 1; }
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
    echo "fuzz: $target: ${seconds}s, $runs runs, $rate exec/s, cov $cov, ft $ft, corpus $(ls "$work" | wc -l)"
  fi
done
