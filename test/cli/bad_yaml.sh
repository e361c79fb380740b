#!/usr/bin/env bash
# Bad configuration files: each must fail with exit status 2 and exactly one stderr line
# naming file:line:col, the dotted key path, what was expected (and for a misspelt key the
# nearest valid one), leaving no --json/--resolved file behind. The inputs are edited
# copies of hw/configs/chips/trn2.yaml and hw/configs/systems/trn2.48xlarge.yaml.
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
make_copies
D=$WORK

# The unedited copies work (so every failure below comes from its one edit).
expect_ok "copied system loads" -- show system "$SYS"
expect_ok "copied chip loads" -- show chip "$CHIP"

# ---- YAML syntax ----
edit_copy "$SYS" "$D/syntax.yaml" 's/^chips: 16 .*/chips: [16/'
expect_error "YAML syntax error in a system file" "re:^trnsim: error: $D/syntax\.yaml:[0-9]+:[0-9]+: " "YAML syntax error" \
  -- bench collective --system "$D/syntax.yaml" --sizes 1KiB
edit_copy "$CHIP" "$D/chip_syntax.yaml" 's/^  capacity: "96 GiB"/  capacity: "96 GiB/'
expect_error "YAML syntax error in a chip file" "re:^trnsim: error: $D/chip_syntax\.yaml:[0-9]+:[0-9]+: " "YAML syntax error" \
  -- bench matmul --chip "$D/chip_syntax.yaml" --m 128 --n 128 --k 128
edit_copy "$SYS" "$D/dup.yaml" 's/^chips: 16 .*/chips: 16\nchips: 16/'
expect_error "duplicate key" "$D/dup.yaml:6:1: chips: duplicate key" -- show system "$D/dup.yaml"
printf -- '- a\n- b\n' >"$D/list.yaml"
expect_error "a list at the top of a file" "$D/list.yaml:1:1: " "expected a map" -- bench hbm --chip "$D/list.yaml"

# ---- unknown (misspelt) keys: named where they are, with the nearest valid key ----
edit_copy "$CHIP" "$D/bandwith.yaml" 's/^  bandwidth: "2.9 TB\/s"/  bandwith: "2.9 TB\/s"/'
loc_of "$D/bandwith.yaml" "  bandwith:" bandwith
expect_error "misspelt key in a chip file suggests the valid one" \
  "$LOC: hbm.bandwith: unknown key 'bandwith'" "did you mean 'bandwidth'?" \
  -- bench matmul --chip "$D/bandwith.yaml" --m 128 --n 128 --k 128
edit_copy "$SYS" "$D/sys_bandwith.yaml" "s#^chip: .*#chip: $D/bandwith.yaml#"
loc_of "$D/bandwith.yaml" "  bandwith:" bandwith
expect_error "misspelt key in the chip file of a system (dotted path from the system)" \
  "$LOC: chip.hbm.bandwith: unknown key 'bandwith'" "did you mean 'bandwidth'?" \
  -- bench collective --system "$D/sys_bandwith.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/latncy.yaml" 's/^  link_latency:/  link_latncy:/'
loc_of "$D/latncy.yaml" "  link_latncy:" link_latncy
expect_error "misspelt key in a system file" \
  "$LOC: topology.link_latncy: unknown key 'link_latncy'" "did you mean 'link_latency'?" \
  -- bench collective --system "$D/latncy.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/instancs.yaml" 's/^chips: 16 .*/chips: 16\ninstancs: 2/'
expect_error "misspelt optional key" "$D/instancs.yaml:6:1: instancs: unknown key 'instancs'" "did you mean 'instances'?" \
  -- show system "$D/instancs.yaml"
edit_copy "$CHIP" "$D/nothing_near.yaml" 's/^  stacks: 4 .*/  stacks: 4\n  colour: blue/'
loc_of "$D/nothing_near.yaml" "  colour:" colour
expect_error "unknown key with nothing close lists the valid keys" \
  "$LOC: hbm.colour: unknown key 'colour'" "valid keys here: stacks, capacity, bandwidth" \
  -- show chip "$D/nothing_near.yaml"

# ---- units ----
edit_copy "$CHIP" "$D/unitless.yaml" 's/^  bandwidth: "2.9 TB\/s"/  bandwidth: 2.9/'
loc_of "$D/unitless.yaml" "  bandwidth: 2.9" 2.9
expect_error "unitless bandwidth" \
  "$LOC: hbm.bandwidth: bare number '2.9' has no unit" "expected a bandwidth with a unit (" \
  -- bench hbm --chip "$D/unitless.yaml" --bytes 1MiB
edit_copy "$SYS" "$D/unitless_nic.yaml" 's/^  bandwidth_per_nic: "200 Gbps"/  bandwidth_per_nic: 200/'
loc_of "$D/unitless_nic.yaml" "  bandwidth_per_nic: 200" 200
expect_error "unitless bandwidth in a system file" \
  "$LOC: efa.bandwidth_per_nic: bare number '200' has no unit" \
  -- bench collective --system "$D/unitless_nic.yaml" --sizes 1KiB
edit_copy "$CHIP" "$D/wrong_unit.yaml" 's/^  capacity: "96 GiB"/  capacity: "96 GB\/s"/'
loc_of "$D/wrong_unit.yaml" '  capacity: "96 GB/s"' '"96'
expect_error "bandwidth unit where bytes are expected" \
  "$LOC: hbm.capacity: unit 'GB/s' is a bandwidth, not a size in bytes" \
  "expected a size in bytes with a unit (" -- bench matmul --chip "$D/wrong_unit.yaml" --m 128 --n 128 --k 128
edit_copy "$SYS" "$D/wrong_unit_mem.yaml" 's/^  memory: "2 TiB"/  memory: "2 GHz"/'
loc_of "$D/wrong_unit_mem.yaml" '  memory: "2 GHz"' '"2'
expect_error "frequency unit where bytes are expected (system)" \
  "$LOC: host.memory: unit 'GHz' is a frequency, not a size in bytes" \
  -- show system "$D/wrong_unit_mem.yaml"
edit_copy "$CHIP" "$D/bad_unit.yaml" 's/^  clock: "2.4 GHz"/  clock: "2.4 GHZ"/'
loc_of "$D/bad_unit.yaml" '  clock: "2.4 GHZ"' '"2.4'
expect_error "unknown unit" "$LOC: tensor.clock: unknown unit 'GHZ'" \
  "expected a frequency with a unit" -- show chip "$D/bad_unit.yaml"

# ---- zero and negative values ----
edit_copy "$CHIP" "$D/zero_cap.yaml" 's/^  capacity: "96 GiB"/  capacity: "0 GiB"/'
loc_of "$D/zero_cap.yaml" '  capacity: "0 GiB"' '"0'
expect_error "zero size" "$LOC: hbm.capacity: value '0 GiB' is out of range: expected > 0" \
  -- bench hbm --chip "$D/zero_cap.yaml" --bytes 1MiB
edit_copy "$CHIP" "$D/neg_bw.yaml" 's/^  bandwidth: "2.9 TB\/s"/  bandwidth: "-2.9 TB\/s"/'
loc_of "$D/neg_bw.yaml" '  bandwidth: "-2.9' '"-2.9'
expect_error "negative bandwidth" \
  "$LOC: hbm.bandwidth: value '-2.9 TB/s' is out of range: expected > 0" \
  -- bench matmul --chip "$D/neg_bw.yaml" --m 128 --n 128 --k 128
edit_copy "$SYS" "$D/zero_link.yaml" '0,/link_bandwidth: "256 GB\/s"/s//link_bandwidth: "0 GB\/s"/'
loc_of "$D/zero_link.yaml" '"0 GB/s"' '"0 GB/s"'
expect_error "zero bandwidth inside a list" \
  "$LOC: topology.dims[0].link_bandwidth: value '0 GB/s' is out of range: expected > 0" \
  -- bench collective --system "$D/zero_link.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/zero_chips.yaml" 's/^chips: 16 .*/chips: 0/'
expect_error "zero count" "$D/zero_chips.yaml:5:8: chips: value 0 is out of range: expected >= 1 and <= 4096" \
  -- bench collective --system "$D/zero_chips.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/neg_chips.yaml" 's/^chips: 16 .*/chips: -4/'
expect_error "negative count" "$D/neg_chips.yaml:5:8: chips: value -4 is out of range: expected >= 1 and <= 4096" \
  -- show system "$D/neg_chips.yaml"
edit_copy "$SYS" "$D/zero_nics.yaml" 's/^  nics: 16 .*/  nics: 0/'
loc_of "$D/zero_nics.yaml" '  nics: 0' 0
expect_error "zero NICs" "$LOC: efa.nics: value 0 is out of range: expected >= 1" \
  -- bench collective --system "$D/zero_nics.yaml" --sizes 1KiB
edit_copy "$CHIP" "$D/big_pairs.yaml" 's/^  mx_pairs_per_pe: 1/  mx_pairs_per_pe: 9/'
loc_of "$D/big_pairs.yaml" '  mx_pairs_per_pe: 9' 9
expect_error "count above its maximum" "$LOC: tensor.mx_pairs_per_pe: value 9 is out of range: expected >= 1 and <= 8" \
  -- show chip "$D/big_pairs.yaml"

# ---- missing keys ----
edit_copy "$CHIP" "$D/no_capacity.yaml" '/^  capacity: /d'
loc_of "$D/no_capacity.yaml" '  stacks: 4' stacks
expect_error "missing required key (in a section)" \
  "$LOC: hbm.capacity: missing key 'capacity'" \
  -- bench matmul --chip "$D/no_capacity.yaml" --m 128 --n 128 --k 128
edit_copy "$SYS" "$D/no_chips.yaml" '/^chips: /d'
expect_error "missing required key (top level)" "$D/no_chips.yaml:3:1: chips: missing key 'chips' (chips per instance)" \
  -- bench collective --system "$D/no_chips.yaml" --sizes 1KiB
edit_copy "$CHIP" "$D/null_capacity.yaml" 's/^  capacity: "96 GiB"/  capacity:/'
expect_error "key without a value" "re:^trnsim: error: $D/null_capacity\.yaml:[0-9]+:[0-9]+: hbm\.capacity: has no value" \
  -- show chip "$D/null_capacity.yaml"
: >"$D/empty.yaml"
expect_error "empty file" "$D/empty.yaml:1:1: name: missing key 'name'" -- show system "$D/empty.yaml"

# ---- wrong types ----
edit_copy "$SYS" "$D/map_chips.yaml" 's/^chips: 16 .*/chips: {count: 16}/'
expect_error "a map where a number is expected" "$D/map_chips.yaml:5:8: chips: expected a number (chips per instance), found a map" \
  -- bench collective --system "$D/map_chips.yaml" --sizes 1KiB
edit_copy "$CHIP" "$D/str_bool.yaml" 's/^  fp8_double_row: true .*/  fp8_double_row: "true"/'
loc_of "$D/str_bool.yaml" '  fp8_double_row: "true"' '"true'
expect_error "a string where a bool is expected" \
  "$LOC: tensor.fp8_double_row: expected true or false" \
  -- bench matmul --chip "$D/str_bool.yaml" --m 128 --n 128 --k 128
edit_copy "$CHIP" "$D/word_bool.yaml" 's/^  fp8_double_row: true .*/  fp8_double_row: maybe/'
loc_of "$D/word_bool.yaml" '  fp8_double_row: maybe' maybe
expect_error "a word where a bool is expected" \
  "$LOC: tensor.fp8_double_row: expected true or false" "found 'maybe'" \
  -- show chip "$D/word_bool.yaml"
edit_copy "$CHIP" "$D/str_number.yaml" 's/^  physical: 8 .*/  physical: "8"/'
loc_of "$D/str_number.yaml" '  physical: "8"' '"8"'
expect_error "a quoted string where a number is expected" \
  "$LOC: cores.physical: expected a number" 'found the string "8"' \
  -- show chip "$D/str_number.yaml"
edit_copy "$SYS" "$D/frac_chips.yaml" 's/^chips: 16 .*/chips: 2.5/'
expect_error "a fraction where a whole number is expected" "$D/frac_chips.yaml:5:8: chips: expected a whole number" \
  -- show system "$D/frac_chips.yaml"
edit_copy "$CHIP" "$D/list_section.yaml" 's/^hbm:$/hbm: [1, 2]/; /^  stacks: 4/d; /^  capacity: "96 GiB"/d; /^  bandwidth: "2.9 TB\/s"/d'
loc_of "$D/list_section.yaml" 'hbm: [1, 2]' '['
expect_error "a list where a section (map) is expected" \
  "$LOC: hbm: expected a map (HBM), found a list" \
  -- show chip "$D/list_section.yaml"
edit_copy "$CHIP" "$D/bad_choice.yaml" 's/^  large_message_algorithm: kangaring/  large_message_algorithm: kangarin/'
loc_of "$D/bad_choice.yaml" '  large_message_algorithm: kangarin' kangarin
expect_error "value not among the allowed words suggests the nearest" \
  "$LOC: collectives.large_message_algorithm: unknown value 'kangarin'" \
  "expected one of ring, kangaring" "did you mean 'kangaring'?" -- show chip "$D/bad_choice.yaml"

# ---- topology implementation ----
edit_copy "$SYS" "$D/impl.yaml" 's/^  impl: torus/  impl: toruss/'
loc_of "$D/impl.yaml" '  impl: toruss' toruss
expect_error "unknown topology impl (misspelt)" \
  "$LOC: topology.impl: unknown impl 'toruss': expected one of " "did you mean 'torus'?" \
  -- bench collective --system "$D/impl.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/impl_mesh.yaml" 's/^  impl: torus/  impl: hypercube/'
loc_of "$D/impl_mesh.yaml" '  impl: hypercube' hypercube
expect_error "unknown topology impl lists the known ones" \
  "$LOC: topology.impl: unknown impl 'hypercube': expected one of " \
  "re:expected one of ([a-z]+, )*torus(, |$)" "re:expected one of ([a-z]+, )*switched(, |$)" \
  -- show system "$D/impl_mesh.yaml"

# ---- includes ----
edit_copy "$CHIP" "$D/missing_include.yaml" "s#^include: .*#include: no-such-file.yaml#"
loc_of "$D/missing_include.yaml" 'include: no-such-file.yaml' no-such
expect_error "missing include file" "$LOC: include: file '$D/no-such-file.yaml' does not exist" \
  -- bench matmul --chip "$D/missing_include.yaml" --m 128 --n 128 --k 128
edit_copy "$SYS" "$D/sys_missing_include.yaml" "s#^chip: .*#chip: $D/missing_include.yaml#"
loc_of "$D/missing_include.yaml" 'include: no-such-file.yaml' no-such; LOC2=$LOC
loc_of "$D/sys_missing_include.yaml" "chip: $D" "$D"
expect_error "missing include file of a system's chip" "$LOC: chip: " \
  "$LOC2: include: file '$D/no-such-file.yaml' does not exist" \
  -- bench collective --system "$D/sys_missing_include.yaml" --sizes 1KiB
printf 'include: cycle_b.yaml\nname: a\n' >"$D/cycle_a.yaml"
printf '# b includes a again\ninclude: cycle_a.yaml\n' >"$D/cycle_b.yaml"
expect_error "include cycle" "$D/cycle_b.yaml:2:10: include: include cycle through '$D/cycle_a.yaml'" \
  -- bench hbm --chip "$D/cycle_a.yaml" --bytes 1MiB
printf 'include: self.yaml\n' >"$D/self.yaml"
expect_error "file including itself" "$D/self.yaml:1:10: include: include cycle" -- show chip "$D/self.yaml"
mkdir -p "$D/a_dir"
edit_copy "$CHIP" "$D/include_dir.yaml" "s#^include: .*#include: a_dir#"
loc_of "$D/include_dir.yaml" 'include: a_dir' a_dir
expect_error "include of a directory" "$LOC: include: '$D/a_dir' is a directory, expected a YAML file" \
  -- show chip "$D/include_dir.yaml"

# ---- a directory or a missing file where a config file is expected ----
mkdir -p "$D/configs.yaml"
expect_error "directory given as --system" "--system: '$D/configs.yaml' is a directory, expected a YAML file" \
  -- bench collective --system "$D/configs.yaml" --sizes 1KiB
expect_error "directory given as --chip" "--chip: '$D/a_dir/' is a directory, expected a YAML file" \
  -- bench matmul --chip "$D/a_dir/" --m 128 --n 128 --k 128
expect_error "directory given to show" "show system: '$D/a_dir/' is a directory, expected a YAML file" -- show system "$D/a_dir/"
edit_copy "$SYS" "$D/chip_dir.yaml" "s#^chip: .*#chip: $D/a_dir#"
loc_of "$D/chip_dir.yaml" "chip: $D" "$D"
expect_error "directory as a system's chip" "$LOC: chip: '$D/a_dir' is a directory, expected a YAML file" \
  -- bench collective --system "$D/chip_dir.yaml" --sizes 1KiB
expect_error "missing file given as --system" "--system: system file '$D/nope.yaml' does not exist" \
  -- bench collective --system "$D/nope.yaml" --sizes 1KiB
edit_copy "$SYS" "$D/chip_missing.yaml" "s#^chip: .*#chip: $D/nope.yaml#"
loc_of "$D/chip_missing.yaml" "chip: $D" "$D"
expect_error "missing chip file named by a system" "$LOC: chip: chip file '$D/nope.yaml' does not exist" \
  -- show system "$D/chip_missing.yaml"
edit_copy "$SYS" "$D/chip_unknown.yaml" "s#^chip: .*#chip: trn22#"
loc_of "$D/chip_unknown.yaml" "chip: trn22" trn22
expect_error "unknown chip name in a system file" "$LOC: chip: unknown chip 'trn22'" \
  "did you mean 'trn2'?" "known: trn1, trn2, trn3" -- bench collective --system "$D/chip_unknown.yaml" --sizes 1KiB

# ---- cross-field checks still exit 2 with one line ----
edit_copy "$SYS" "$D/nics.yaml" 's/^  nics: 16 .*/  nics: 3/'
expect_error "NICs that do not divide the chips" "efa.nics: 3 NICs do not divide 16 chips" \
  -- bench collective --system "$D/nics.yaml" --sizes 1KiB

finish
