#!/usr/bin/env bash
# The pipeline, stage by stage, on tiny CPU defaults (about 5 minutes on 2 cores; ROUNDS=2 about 9).
# Sizes come from environment variables; a full run sets them larger and points LLM at a server:
#   RUN=runs/full THEMES=0 ROUNDS=3 WORKERS=16 LLM=openai LLM_BASE_URL=... LLM_MODEL=... MODEL=/models/qwen bash run_all.sh
set -euo pipefail
cd "$(dirname "$0")"
RUN=${RUN:-runs/tiny}      # run folder: one subfolder per stage
SEED=${SEED:-0}
THEMES=${THEMES:-8}        # themes to mine (0 = every theme the corpus covers, ~50)
COMPLEXIFY=${COMPLEXIFY:-1}  # complexification rounds of 01's operator when mining
ROUNDS=${ROUNDS:-1}        # training rounds: 06 -> 07 (arena, diagnosis, next round's tasks) -> 06 ...
WORKERS=${WORKERS:-2}
LLM=${LLM:-none}           # none = the offline programmatic path of every stage
MODEL=${MODEL:-tiny}       # policy: tiny (built from the run's text) or an HF model folder
SFT_STEPS=${SFT_STEPS:-60} # cold-start SFT steps on reference trajectories
GRPO_STEPS=${GRPO_STEPS:-12}
common=(--run-dir "$RUN" --seed "$SEED" --workers "$WORKERS")

# ---- 01 mine: themes + data/corpus -> 01_mine/envs/<id>/{env.json, db.sqlite}, envs.jsonl (~5 s)
python 01_mine.py "${common[@]}" --llm "$LLM" --limit "$THEMES" --rounds "$COMPLEXIFY"

# ---- 02 build tools: schema (or a code agent) -> tools.py, tool_tests.py per environment (~15 s)
python 02_build_tools.py "${common[@]}" --llm "$LLM"

# ---- 03 filter: sandboxed import, > 50% tests passed, execution audit -> 03_filter/envs/<id>/ (~20 s)
python 03_filter.py "${common[@]}"

# ---- 04 taxonomy: TF-IDF + SVD embedding, Ward clustering, named levels -> 04_taxonomy/labels.jsonl (~1 s)
python 04_taxonomy.py --run-dir "$RUN" --seed "$SEED" --llm "$LLM"

# ---- 05 tasks: tool-graph walks + program templates, rubrics/verifiers, reward integrity -> 05_tasks/tasks.jsonl (~20 s)
python 05_tasks.py "${common[@]}" --llm "$LLM"

# ---- 06 -> 07, ROUNDS times: train (06: SFT warm-up on reference trajectories, then multi-turn GRPO), evaluate on
#      fresh arena tasks and diagnose the weak environments (07), which writes the next round's run folder
#      (targeted tasks + replay, databases grown by 01's operator where thin). Round 1 is $RUN (a fresh tiny
#      model built from the run's text), round r is $RUN/round$r (from round r-1's checkpoint).
#      07 writes $RUN/report.html covering every round. (~3 min for 06 and ~1 min for 07 per round)
dir=$RUN; model=$MODEL
for r in $(seq 1 "$ROUNDS"); do
  python 06_grpo.py --run-dir "$dir" --seed "$SEED" --model "$model" --device cpu \
      --sft-steps "$SFT_STEPS" --sft-batch 4 --steps "$GRPO_STEPS" --distractors 1
  next=""; if [ "$r" -lt "$ROUNDS" ]; then next=$RUN/round$((r + 1)); fi
  python 07_diagnose.py --run-dir "$dir" --seed "$SEED" --model "$dir/06_grpo/final" --llm "$LLM" --next-run-dir "$next"
  model=$dir/06_grpo/final; dir=$next
done

echo "run_all.sh: done; outputs in $RUN/, report in $RUN/report.html"
