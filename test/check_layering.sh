#!/usr/bin/env bash
# Checks #include lines against the layer matrix of docs/architecture.md section 2:
#   sim/base: no SystemC, no models/hw/workloads; models/: no SystemC, hw/, workloads/;
#   workloads/: no hw/ or SystemC; hw/: no workloads/; sim/app/analysis and sim/app/storage
#   (the libraries unit tests link): no SystemC; the other folders of sim/app in their order
#   (simulation <- calibration, commands <- plan <- cli), CLI11 only in sim/app/cli; yaml-cpp
#   only in the config loader. Every folder of sim/app must have a rule.
set -u
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
root=${1:-.}
cd "$root" || exit 2
fail=0
bad() { echo "layering: $1"; fail=1; }
check() {  # dir regex
  local hits
  hits=$(grep -rEn "$2" "$1" --include='*.h' --include='*.cpp' 2>/dev/null)
  [ -n "$hits" ] && bad "$1 must not include $3:
$hits"
}
check sim/base '#include\s*[<"](systemc|tlm|models/|hw/|workloads/|sim/kernel|sim/app)' "SystemC or higher layers"
check models '#include\s*[<"](systemc|tlm|hw/|workloads/|sim/kernel|sim/app)' "SystemC, hw/, workloads/ or sim/kernel"
[ -d workloads ] && check workloads '#include\s*[<"](systemc|tlm|hw/|sim/kernel|sim/app)' "SystemC or hw/"
check hw '#include\s*[<"](workloads/|sim/app)' "workloads/ or sim/app"
check sim/kernel '#include\s*[<"](models/|hw/|workloads/|sim/app)' "models/, hw/, workloads/ or sim/app"
# The libraries of sim/app that unit tests link: no SystemC and nothing of the app above them.
check sim/app/analysis '#include\s*[<"](systemc|tlm|hw/|sim/kernel|sim/app/(cli|commands|calibration|simulation|storage|report)/)' \
  "SystemC, hw/ or other sim/app folders"
check sim/app/storage '#include\s*[<"](systemc|tlm|models/|hw/|workloads/|sim/kernel|sim/app/(cli|commands|calibration|simulation|analysis|report)/)' \
  "SystemC, models/, hw/, workloads/ or other sim/app folders"
# The trace writers (Perfetto's protobuf trace): sim/base and the generated schema only.
check sim/app/trace '#include\s*[<"](systemc|tlm|CLI/|models/|hw/|workloads/|sim/kernel|sim/app/(cli|commands|calibration|simulation|plan|report|storage|analysis)/)' \
  "SystemC, CLI11, models/, hw/, workloads/ or other sim/app folders"
# The rest of sim/app, bottom to top: simulation <- calibration, commands <- plan <- cli. Only
# sim/app/cli parses options (CLI11) or starts the SystemC kernel (<systemc>).
check sim/app/simulation '#include\s*[<"](systemc|tlm|CLI/|sim/app/(cli|commands|calibration|plan|report|storage)/)' \
  "<systemc>, CLI11 or the sim/app folders above it"
check sim/app/calibration '#include\s*[<"](systemc|tlm|CLI/|sim/app/(cli|commands|plan|report|storage)/)' \
  "<systemc>, CLI11, cli/, commands/, plan/, report/ or storage/"
check sim/app/commands '#include\s*[<"](systemc|tlm|CLI/|sim/app/(cli|calibration)/)' \
  "<systemc>, CLI11, cli/ or calibration/"
check sim/app/plan '#include\s*[<"](systemc|tlm|CLI/|sim/app/(cli|calibration)/)' \
  "<systemc>, CLI11, cli/ or calibration/"
check sim/app/report '#include\s*[<"](systemc|tlm|CLI/|hw/|sim/kernel|sim/app/(cli|commands|calibration|simulation|plan|analysis)/)' \
  "<systemc>, CLI11, hw/, sim/kernel or sim/app folders other than storage/"
check sim/app/cli '#include\s*[<"](tlm|sqlite3)' "<tlm> or sqlite3 (the database is sim/app/storage's)"
check sim/app/report/report_data.cpp '#include\s*[<"](systemc|tlm|hw/|sim/kernel|sim/app/(cli|commands|calibration|simulation|analysis)/)' \
  "SystemC, hw/ or sim/app folders other than storage/"
# Every folder of sim/app has a rule above: a new folder must get one.
for d in sim/app/*/; do
  d=${d%/}
  grep -q "^check $d " "$self" || bad "$d has no rule in test/check_layering.sh (add one, and a row to docs/architecture.md section 2)"
done
yaml=$(grep -rlE '#include\s*[<"]yaml-cpp' sim models hw workloads 2>/dev/null | grep -v '^sim/base/config_loader.cpp$')
[ -n "$yaml" ] && bad "yaml-cpp included outside sim/base/config_loader.cpp: $yaml"
[ $fail = 0 ] && echo "layering: ok"
exit $fail
