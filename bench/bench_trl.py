"""TRL's GRPOTrainer on the same tiny model, prompts, group size and generation length as bench_grpo.py's single-turn run.

Run by bench_grpo.py with a Python that has trl (pip install trl: 1.16.0 installs without touching torch or
transformers here; a venv with --system-site-packages keeps it out of the project's environment):
    python bench/bench_trl.py --model PATH --prompts-json FILE --group 8 --max-new-tokens 32 --steps 12
Prints one JSON line: steps/s and completion tokens/s over the steps after the first (warm-up).
"""
import argparse
import json
import time

import torch

if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--model", required=True, help="HF folder of the tiny model")
    p.add_argument("--prompts-json", required=True, help="JSON list of chat-rendered prompt strings")
    p.add_argument("--group", type=int, default=8)
    p.add_argument("--max-new-tokens", type=int, default=32)
    p.add_argument("--steps", type=int, default=12)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--threads", type=int, default=1)
    args = p.parse_args()
    torch.set_num_threads(args.threads)

    import trl
    from datasets import Dataset
    from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    prompts = json.load(open(args.prompts_json))
    tok = AutoTokenizer.from_pretrained(args.model)
    tok.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(args.model)

    def even_share(completion_ids, **_):
        """Same reward as bench_grpo.py: the share of sampled ids that are even."""
        return [sum(t % 2 == 0 for t in ids) / max(len(ids), 1) for ids in completion_ids]

    class Clock(TrainerCallback):
        def __init__(self):
            self.t, self.lengths = [], []

        def on_step_end(self, a, state, control, **kw):
            self.t.append(time.time())

        def on_log(self, a, state, control, logs=None, **kw):
            if logs and "completions/mean_length" in logs:
                self.lengths.append(logs["completions/mean_length"])

    n = len(prompts)
    config = GRPOConfig(
        output_dir="/tmp/bench_trl_out", num_generations=args.group, per_device_train_batch_size=n * args.group,
        steps_per_generation=1, num_iterations=1,
        max_completion_length=args.max_new_tokens, temperature=1.0, top_p=1.0, top_k=0, beta=0.0,
        loss_type="dapo", epsilon=0.2, epsilon_high=0.28, learning_rate=args.lr, max_steps=args.steps,
        gradient_checkpointing=False, use_cpu=True, bf16=False, logging_steps=1, save_strategy="no",
        report_to="none", shuffle_dataset=False, disable_tqdm=True, seed=0)
    clock = Clock()
    data = Dataset.from_list([{"prompt": prompts[i % n]} for i in range(n * args.steps * 2)])
    trainer = GRPOTrainer(model=model, reward_funcs=even_share, args=config, train_dataset=data,
                          processing_class=tok, callbacks=[clock])
    trainer.train()
    dt = clock.t[-1] - clock.t[0]
    steps = len(clock.t) - 1
    mean_len = sum(clock.lengths[1:]) / max(len(clock.lengths) - 1, 1)
    print(json.dumps({"trl": trl.__version__, "steps_per_s": steps / dt,
                      "tokens_per_s": steps * n * args.group * mean_len / dt, "mean_completion_len": mean_len}))
