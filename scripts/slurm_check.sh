#!/bin/bash
# Runs deploy/slurm for real: starts a single-node Slurm (munge, slurmctld,
# slurmd, all in a scratch folder on their own ports), submits the array of
# media parts, the dependent array of page parts and the last step with
# deploy/slurm/submit.sh over the Examples library, waits, and checks the
# site is byte for byte a single build's, the last step made no rendition
# and rendered no page again. Needs root (the
# daemons); installs Debian's slurm-wlm and munge when missing.
#
#   bash scripts/slurm_check.sh .build/release/gallerygen
set -euo pipefail
binary="$(realpath "${1:?usage: $0 GALLERYGEN_BINARY}")"
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$(id -u)" != 0 ]; then
  echo "slurm check: skipped (starting Slurm's daemons needs root)"
  exit 0
fi
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  echo "Installing Debian packages: slurm-wlm munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge >/dev/null
fi
work="$(mktemp -d /tmp/gallerygen-slurm-XXXXXX)"
chmod 755 "$work"
cleanup() {
  for daemon in slurmd slurmctld munged; do
    [ -s "$work/$daemon.pid" ] && kill "$(cat "$work/$daemon.pid")" 2>/dev/null || true
  done
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT

# munge with its own key and socket.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
mkdir -p "$work/munge"
/usr/sbin/munged --force --key-file="$work/munge.key" --socket="$work/munge/socket" --pid-file="$work/munged.pid" \
  --log-file="$work/munged.log" --seed-file="$work/munge/seed"

host="$(hostname -s)"
export SLURM_CONF="$work/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=gallerygen-check
SlurmctldHost=$host
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge/socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
StateSaveLocation=$work/ctld
SlurmdSpoolDir=$work/d
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ReturnToService=2
NodeName=$host CPUs=$(nproc) RealMemory=8192 State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$work/ctld" "$work/d"
/usr/sbin/slurmctld -f "$SLURM_CONF" -i
/usr/sbin/slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || { echo "slurm check: the node never came up"; tail -5 "$work/slurmctld.log" "$work/slurmd.log"; exit 1; }

# The array of three media parts, two page parts, then the last step, as a user submits them.
cd "$work"
export SOURCE="$root/Examples" OUTPUT="$work/site" GALLERYGEN="$binary" PAGE_ARRAY=0-1
bash "$root/deploy/slurm/submit.sh" --array=0-2 --mem=1G
for _ in $(seq 300); do
  [ -z "$(squeue -h)" ] && break
  sleep 1
done
[ -z "$(squeue -h)" ] || { echo "slurm check: jobs still queued after 300 s"; squeue; exit 1; }
site_log="$(ls "$work"/gallerygen-site-*.log)"
cat "$work"/gallerygen-shards-*.log "$work"/gallerygen-pages-*.log "$site_log"
[ "$(ls "$work"/gallerygen-pages-*.log | wc -l)" = 2 ] || { echo "slurm check: expected two page parts"; exit 1; }
grep -q "(0 renditions made, " "$site_log" || { echo "slurm check: the last step made renditions again"; exit 1; }
grep -q "rendered 0 of " "$site_log" || { echo "slurm check: the last step rendered pages the page parts had made"; exit 1; }
"$binary" build "$SOURCE" --output "$work/single" --quiet
diff -r "$work/site" "$work/single" >/dev/null \
  || { echo "slurm check: the site differs from a single build"; diff -rq "$work/site" "$work/single" | head; exit 1; }
echo "slurm check: a real Slurm array of 3 media parts, 2 page parts and the last step gave the single build's site, byte for byte"
