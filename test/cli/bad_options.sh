#!/usr/bin/env bash
# Bad command-line values: each must fail with exit status 2 and exactly one stderr line
# naming the option (or the --set assignment), the key path where there is one and what
# was expected, leaving no --json/--resolved file behind.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
D=$WORK
SMALL=(--sizes 1KiB --ranks 2)  # keeps any run that wrongly succeeds short

# ---- --set: zero, negative, unitless, wrong unit, unknown key, malformed ----
expect_error "--set zero bandwidth (system)" "--set #1 'chip.hbm.bandwidth=0 TB/s': chip.hbm.bandwidth: value '0 TB/s' is out of range: expected > 0" \
  -- bench collective "${SMALL[@]}" --set chip.hbm.bandwidth="0 TB/s"
expect_error "--set zero bandwidth (chip, system-style key)" "--set #1 'chip.hbm.bandwidth=0 TB/s': hbm.bandwidth: value '0 TB/s' is out of range: expected > 0" \
  -- bench matmul --m 128 --n 128 --k 128 --set chip.hbm.bandwidth="0 TB/s"
expect_error "--set zero bandwidth (chip key)" "--set #1 'hbm.bandwidth=0 TB/s': hbm.bandwidth: value '0 TB/s' is out of range" \
  -- bench hbm --bytes 1MiB --set hbm.bandwidth="0 TB/s"
expect_error "--set zero bandwidth (show)" "chip.hbm.bandwidth: value '0 TB/s' is out of range" \
  -- show system trn2.48xlarge --set chip.hbm.bandwidth="0 TB/s"
expect_error "--set negative count" "--set #1 'chips=-1': chips: value -1 is out of range: expected >= 1 and <= 4096" \
  -- bench collective "${SMALL[@]}" --set chips=-1
expect_error "--set zero count" "--set #1 'chips=0': chips: value 0 is out of range" -- bench collective "${SMALL[@]}" --set chips=0
expect_error "--set negative size" "--set #1 'chip.hbm.capacity=-1 GiB': chip.hbm.capacity: value '-1 GiB' is out of range: expected > 0" \
  -- bench collective "${SMALL[@]}" --set chip.hbm.capacity="-1 GiB"
expect_error "--set zero size (chip)" "sbuf.bytes_per_partition: value '0 KiB' is out of range: expected > 0" \
  -- bench matmul --m 128 --n 128 --k 128 --set sbuf.bytes_per_partition="0 KiB"
expect_error "--set zero DMA bandwidth (chip)" "dma.engine_bandwidth: value '0 GB/s' is out of range" \
  -- bench hbm --bytes 1MiB --set dma.engine_bandwidth="0 GB/s"
expect_error "--set unitless bandwidth" "--set #1 'chip.hbm.bandwidth=2.9': chip.hbm.bandwidth: bare number '2.9' has no unit" \
  "expected a bandwidth with a unit" -- bench collective "${SMALL[@]}" --set chip.hbm.bandwidth=2.9
expect_error "--set wrong unit kind" "chip.hbm.capacity: unit 'GB/s' is a bandwidth, not a size in bytes" "expected a size in bytes" \
  -- bench collective "${SMALL[@]}" --set chip.hbm.capacity="96 GB/s"
expect_error "--set misspelt key" "--set #1 'chip.hbm.bandwith=3 TB/s': chip.hbm.bandwith: unknown key 'bandwith'" "did you mean 'bandwidth'?" \
  -- bench collective "${SMALL[@]}" --set chip.hbm.bandwith="3 TB/s"
expect_error "--set numbers its assignments" "--set #2 'chips=-1'" \
  -- bench collective "${SMALL[@]}" --set chip.hbm.bandwidth="3 TB/s" --set chips=-1
expect_error "--set without '='" "--set #1 'chips'" "expected key=value" -- bench collective "${SMALL[@]}" --set chips
expect_error "--set with an empty key" "--set #1 '=3'" "expected key=value" -- bench matmul --set =3
expect_error "--set with an empty value" "--set #1 'chips=': chips: expected a number" -- show system trn2.48xlarge --set chips=
expect_error "--set with an empty path segment" "a..b: empty key in dotted path" -- show system trn2.48xlarge --set a..b=3
expect_error "--set a key inside a scalar" "chips.x: cannot set a key inside 'chips', which is a scalar" \
  -- bench collective "${SMALL[@]}" --set chips.x=3
expect_error "--set a map where a number is expected" "chips: expected a number (chips per instance), found a map" \
  -- bench collective "${SMALL[@]}" --set 'chips={count: 16}'
expect_error "--set a word where a bool is expected" "chip.tensor.fp8_double_row: expected true or false" \
  -- bench collective "${SMALL[@]}" --set chip.tensor.fp8_double_row=maybe
expect_error "--set YAML syntax error" "re:--set #1 'chip\.name=\[1'.*YAML syntax error" -- show system trn2.48xlarge --set 'chip.name=[1'
expect_error "--set unknown topology impl" "topology.impl: unknown impl 'toruss'" "did you mean 'torus'?" \
  -- bench collective "${SMALL[@]}" --set topology.impl=toruss

# ---- unknown names ----
systems=$(cd "$HW/systems" && ls *.yaml | sed 's/\.yaml$//' | sort | paste -sd, - | sed 's/,/, /g')
chips=$(cd "$HW/chips" && ls *.yaml | sed 's/\.yaml$//' | sort | paste -sd, - | sed 's/,/, /g')
expect_error "unknown system name (near)" "--system: unknown system 'trn2.48xlarg'" "did you mean 'trn2.48xlarge'?" "; known: $systems" \
  -- bench collective "${SMALL[@]}" --system trn2.48xlarg
expect_error "unknown system name (nothing near)" "--system: unknown system 'dgx'; known: $systems" -- bench collective --system dgx
expect_error "unknown chip name (matmul)" "--chip: unknown chip 'trn22'" "did you mean 'trn2'?" "; known: $chips" -- bench matmul --chip trn22
expect_error "unknown chip name (hbm)" "--chip: unknown chip 'tnr3'" "did you mean 'trn3'?" "known: $chips" -- bench hbm --chip tnr3
expect_error "unknown chip name (show)" "show chip: unknown chip 'h100'; known: $chips" -- show chip h100
expect_error "unknown system name (show)" "show system: unknown system 'trn2-ultraservr'" "did you mean 'trn2-ultraserver'?" \
  -- show system trn2-ultraservr
expect_error "missing config file" "--chip: chip file '$D/nope.yaml' does not exist" -- bench matmul --chip "$D/nope.yaml"

# ---- output paths ----
expect_error "--json in a missing directory" "--json /nonexistent-dir/x.json: directory '/nonexistent-dir' does not exist" \
  -- bench collective "${SMALL[@]}" --json /nonexistent-dir/x.json
expect_error "--resolved in a missing directory" "--resolved /nonexistent-dir/r.yaml: directory '/nonexistent-dir' does not exist" \
  -- bench matmul --m 128 --n 128 --k 128 --resolved /nonexistent-dir/r.yaml
mkdir -p "$D/outdir"
expect_error "--json is a directory" "--json $D/outdir: is a directory, expected a file path" -- bench hbm --bytes 1MiB --json "$D/outdir"
expect_error "--resolved is a directory" "--resolved $D/outdir: is a directory" -- bench collective "${SMALL[@]}" --resolved "$D/outdir"
check "the directory given as --json is untouched" test -d "$D/outdir"
mkfifo "$D/fifo"
expect_error "--json is a FIFO (the rename would replace it)" "--json $D/fifo: is not a regular file" \
  -- bench hbm --bytes 1MiB --json "$D/fifo"
check "the FIFO given as --json is untouched" test -p "$D/fifo"
expect_error "--json and --resolved name the same file" "--resolved $D/./same.out: same file as --json" \
  -- bench matmul --m 128 --n 128 --k 128 --json "$D/same.out" --resolved "$D/./same.out"
check "no file at the shared path" test ! -e "$D/same.out"
if [ "$(id -u)" -ne 0 ]; then
  mkdir -p "$D/readonly" && chmod 555 "$D/readonly"
  expect_error "--json in a read-only directory" "--json $D/readonly/x.json: directory '$D/readonly' is not writable" \
    -- bench hbm --bytes 1MiB --json "$D/readonly/x.json"
  chmod 755 "$D/readonly"
fi
# An output that cannot be created even though its directory looks writable (procfs as root,
# or a read-only directory otherwise): the error is reported after the run, and neither
# output file may be left behind.
expect_error "--resolved cannot be created: no partial outputs" "re:^trnsim: error: --resolved /proc/" \
  -- bench collective "${SMALL[@]}" --resolved /proc/trnsim-cli-test.yaml
expect_error "--json cannot be created: no partial outputs" "re:^trnsim: error: --json /proc/" \
  -- bench hbm --bytes 1MiB --json /proc/trnsim-cli-test.json

# ---- --sizes / --bytes ----
expect_error "--sizes bare number" "--sizes: bare number '1024' has no unit" "expected a size in bytes with a unit (" \
  -- bench collective --sizes 1024
expect_error "--sizes not a number" "--sizes: 'abc' does not start with a number" "expected a size in bytes" -- bench collective --sizes abc
expect_error "--sizes zero" "--sizes: size '0KiB' must be positive" -- bench collective --sizes 0KiB
expect_error "--sizes negative" "--sizes: size '-1MiB' must be positive" -- bench collective --sizes 1KiB,-1MiB
expect_error "--sizes empty item" "--sizes: empty value" -- bench collective --sizes 1KiB,,2KiB
expect_error "--sizes wrong unit kind" "--sizes: unit 'GB/s' is a bandwidth, not a size in bytes" -- bench collective --sizes "1 GB/s"
expect_error "--sizes unknown unit" "--sizes: unknown unit 'kb'" -- bench collective --sizes 4kb
expect_error "--sizes too large" "--sizes: size '2PiB' is too large" -- bench collective --sizes 2PiB
expect_error "--bytes bare number" "--bytes: bare number '4096' has no unit" -- bench hbm --bytes 4096
expect_error "--bytes zero" "--bytes: size '0B' must be positive" -- bench hbm --bytes 0B

# ---- other options ----
expect_error "bad --op" "--op: unknown collective 'all-reduse': expected all-reduce, all-gather, reduce-scatter, all-to-all" \
  -- bench collective "${SMALL[@]}" --op all-reduse
expect_error "bad --dtype (collective)" "--dtype: unknown dtype 'fp64': expected " -- bench collective "${SMALL[@]}" --dtype fp64
expect_error "bad --dtype (matmul)" "--dtype: unknown dtype 'uint8': expected bf16, fp16, fp32, fp8, mxfp8, mxfp4" -- bench matmul --dtype uint8
expect_error "bad --algorithm" "--algorithm: unknown algorithm 'tree': expected auto, ring, kangaring, mesh, rdh" \
  -- bench collective "${SMALL[@]}" --algorithm tree
expect_error "--ranks larger than the system" "--ranks: expected 2 to 64 ranks on 16 chips at LNC=2, got 65" \
  -- bench collective --sizes 1KiB --ranks 65
expect_error "--ranks larger than the system at LNC=1" "--ranks: expected 2 to 128 ranks on 16 chips at LNC=1, got 129" \
  -- bench collective --sizes 1KiB --lnc 1 --ranks 129
expect_error "--ranks 1" "--ranks: expected 2 to " "got 1" -- bench collective --sizes 1KiB --ranks 1
expect_error "--ranks negative" "--ranks: expected 2 to " "got -3" -- bench collective --sizes 1KiB --ranks -3
expect_error "--lnc not supported" "--lnc: LNC 4 is not supported by trn2" "1, 2" -- bench collective "${SMALL[@]}" --lnc 4
expect_error "--lnc not supported (trn1)" "--lnc: LNC 2 is not supported by trn1" -- bench collective "${SMALL[@]}" --system trn1.32xlarge --lnc 2
expect_error "--instances negative" "--instances: expected 1 to 65536 instances, got -1" -- bench collective "${SMALL[@]}" --instances -1
expect_error "more than a million chips" "instances: 7282 instances of 144 chips are 1048608 chips: expected at most 1048576 in all" \
  -- bench collective "${SMALL[@]}" --system trn3-gen2-ultraserver --instances 7282
expect_error "--cores beyond the chip" "--cores: expected 1 to 8 cores on trn2, got 9" -- bench hbm --bytes 1MiB --cores 9
expect_error "--cores zero" "--cores: expected 1 to 8 cores on trn2, got 0" -- bench hbm --bytes 1MiB --cores 0
expect_error "--m zero" "--m: expected 1 to 16777216, got 0" -- bench matmul --m 0
expect_error "--k negative" "--k: expected 1 to 16777216, got -5" -- bench matmul --k -5

# ---- command-line syntax (CLI11) ----
expect_error "not an integer" "--ranks" "abc" -- bench collective --ranks abc
expect_error "option without its value" "--ranks" -- bench collective --ranks
expect_error "unknown option" "--bogus" -- bench collective --bogus
expect_error "no subcommand" "subcommand" --
expect_error "no bench subcommand" "subcommand" -- bench
expect_error "show of an unknown kind" "widget" -- show widget trn2

finish
