#!/usr/bin/env bash
# Collects the shards of one load Job (load-shards-job.yaml) from their pods' logs and judges the
# whole run with `hps-conformance load merge` (on this machine, or in the image: HPS_CLI="docker run
# --rm -v $PWD:/work -w /work registry.example/hps-conformance:0.1.0").
#   docs/examples/kubernetes/merge-shards.sh JOB [DIR]      JOB as `kubectl create -f load-shards-job.yaml -o name` printed it
# DIR (default hps-load-<job>) gets shard-<i>/load.json per pod and merged/ (load.json, load.md,
# load.html, load.junit.xml). Exit: load merge's (0 pass, 1 a threshold missed or a check failed);
# 2 when a shard's line is missing (the merge would judge less than the run).
set -euo pipefail
job="${1:?usage: merge-shards.sh JOB [DIR]}"
job="${job#job.batch/}"
dir="${2:-hps-load-$job}"
shards=$(kubectl get "job/$job" -o jsonpath='{.spec.completions}')
mkdir -p "$dir"
for pod in $(kubectl get pods -l "batch.kubernetes.io/job-name=$job" -o jsonpath='{.items[*].metadata.name}'); do
  kubectl logs "$pod" -c shard | while IFS= read -r line; do
    case "$line" in
      "hps-load-json "*)
        rest="${line#hps-load-json }"; index="${rest%% *}"
        case "$index" in (*[!0-9]*|'') continue ;; esac
        mkdir -p "$dir/shard-$index"; printf '%s\n' "${rest#* }" > "$dir/shard-$index/load.json" ;;
    esac
  done
done
dirs=()
for ((i = 0; i < shards; i++)); do
  if [ ! -f "$dir/shard-$i/load.json" ]; then echo "merge-shards: no load.json line from shard $i of $job" >&2; exit 2; fi
  dirs+=("$dir/shard-$i")
done
${HPS_CLI:-hps-conformance} load merge --max-p99-ms 250 --max-error-rate 0.01 --report "$dir/merged" "${dirs[@]}"
