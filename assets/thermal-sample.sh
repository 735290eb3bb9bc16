#!/usr/bin/env bash
# Sample GPU temperature, power, SM clock, utilisation and the clock-event
# (throttle) reasons every INTERVAL seconds into a CSV, in the background.
#
#   bash assets/thermal-sample.sh 30 thermal.log    # prints the sampler's PID
#   kill PID                                        # stop it
#
# One header line, then one timestamped row per sample. A field the GPU does
# not report is written as nvidia-smi prints it ([N/A], [Not Supported]); a
# failed query still writes a row with the time, so gaps stay visible.
set -u

interval=${1:-30}
out=${2:-thermal.log}

case "$interval" in
  ''|*[!0-9]*) echo "usage: bash assets/thermal-sample.sh SECONDS FILE (SECONDS a whole number)" >&2; exit 2 ;;
esac
if ! command -v nvidia-smi >/dev/null 2>&1; then
  echo "nvidia-smi not found: run this on the Spark itself" >&2
  exit 1
fi

base="timestamp,temperature.gpu,power.draw,clocks.sm,utilization.gpu"
# Drivers before R535 name the reasons clocks_throttle_reasons.*; older
# ones reject unknown fields and the whole query fails, so pick what works.
fields=""
for prefix in clocks_event_reasons clocks_throttle_reasons; do
  candidate="$base,$prefix.active,$prefix.sw_thermal_slowdown,$prefix.hw_thermal_slowdown,$prefix.sw_power_cap"
  if nvidia-smi --query-gpu="$candidate" --format=csv,noheader >/dev/null 2>&1; then
    fields=$candidate
    # Newer drivers also keep cumulative counters (microseconds): a short
    # slowdown between two samples still shows as growth.
    counters="$fields,clocks_event_reasons_counters.sw_thermal_slowdown,clocks_event_reasons_counters.hw_thermal_slowdown"
    if nvidia-smi --query-gpu="$counters" --format=csv,noheader >/dev/null 2>&1; then
      fields=$counters
    fi
    break
  fi
done
if [ -z "$fields" ]; then
  fields=$base
  if ! nvidia-smi --query-gpu="$fields" --format=csv,noheader >/dev/null 2>&1; then
    fields="timestamp,temperature.gpu,power.draw"
  fi
fi
columns=$(printf '%s' "$fields" | tr ',' '\n' | wc -l)

# The CPU cluster heats too: the hottest thermal zone, readable without
# root, in degrees C (the kernel reports millidegrees).
cpu_temp() {
  max=""
  for z in /sys/class/thermal/thermal_zone*/temp; do
    [ -r "$z" ] || continue
    v=$(cat "$z" 2>/dev/null) || continue
    case "$v" in ''|*[!0-9-]*) continue ;; esac
    if [ -z "$max" ] || [ "$v" -gt "$max" ]; then max=$v; fi
  done
  if [ -n "$max" ]; then
    printf '%d.%03d' $((max / 1000)) $((max % 1000))
  else
    printf '[N/A]'
  fi
}

# A restarted sampler appends its own header; headroom reads both.
printf '%s,cpu.temp.max [C]\n' "$fields" >> "$out"

(
  trap 'exit 0' TERM INT
  while :; do
    if row=$(nvidia-smi --query-gpu="$fields" --format=csv,noheader 2>/dev/null) && [ -n "$row" ]; then
      printf '%s, %s\n' "$(printf '%s\n' "$row" | head -n 1)" "$(cpu_temp)" >> "$out"
    else
      # Keep the time even when the query fails, with [N/A] for the rest.
      missing=$(printf ', [N/A]%.0s' $(seq 2 "$columns"))
      printf '%s%s, %s\n' "$(date '+%Y/%m/%d %H:%M:%S.000')" "$missing" "$(cpu_temp)" >> "$out"
    fi
    sleep "$interval"
  done
) >/dev/null 2>&1 &

echo $!
