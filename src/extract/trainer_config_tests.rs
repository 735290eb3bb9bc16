//! Unit tests for `extract::trainer_config`, kept beside it so the reader stays short.
use super::*;

const LLAMA_FACTORY: &str = "model_name_or_path: Qwen/Qwen2.5-32B-Instruct\nstage: sft\nfinetuning_type: lora\nlora_rank: 16\nlora_target: all\nquantization_bit: 4\ncutoff_len: 2048\nper_device_train_batch_size: 1\ngradient_accumulation_steps: 16\nbf16: true\n";

const AXOLOTL: &str = "base_model: NousResearch/Meta-Llama-3.1-8B  # the base\nload_in_4bit: true\nadapter: qlora\nsequence_len: 4096\nmicro_batch_size: 2\nlora_r: 32\nlora_target_linear: true\nlora_target_modules:\n  - q_proj\n  - v_proj\ndatasets:\n  - path: mhenrichsen/alpaca_2k_test\n    type: alpaca\noptimizer: paged_adamw_8bit\nbf16: auto\ngradient_checkpointing: true\n";

const TORCHTUNE: &str = "# Config for single device QLoRA\nmodel:\n  _component_: torchtune.models.llama3_1.qlora_llama3_1_8b\n  lora_attn_modules: ['q_proj', 'v_proj', 'output_proj']\n  lora_rank: 8\n\ntokenizer:\n  _component_: torchtune.models.llama3.llama3_tokenizer\n  path: /tmp/Meta-Llama-3.1-8B-Instruct/original/tokenizer.model\n  max_seq_len: null\n\nbatch_size: 4\noptimizer:\n  _component_: torch.optim.AdamW\n  lr: 3e-4\ndtype: bf16\nenable_activation_checkpointing: True\n";

#[test]
fn llama_factory_yaml() {
    assert!(looks_like_trainer_config(LLAMA_FACTORY));
    let c = parse_trainer_config(LLAMA_FACTORY).unwrap();
    assert_eq!(c.framework, Some("LLaMA-Factory"));
    assert_eq!(c.model_id.as_deref(), Some("Qwen/Qwen2.5-32B-Instruct"));
    assert_eq!((c.method, c.load_bits), (Some("lora"), Some(4)));
    assert_eq!(
        (c.lora_rank, c.lora_targets.as_deref()),
        (Some(16), Some("all"))
    );
    assert_eq!(
        (c.pack, c.batch, c.grad_accum),
        (Some(2048), Some(1), Some(16))
    );
    assert_eq!(c.dtype, Some("bf16"));
    assert_eq!(c.keys.len(), 10);
    assert_eq!(c.keys[1], ("stage".to_string(), "sft".to_string()));
}

#[test]
fn axolotl_yaml_with_lists_and_comments() {
    assert!(looks_like_trainer_config(AXOLOTL));
    let c = parse_trainer_config(AXOLOTL).unwrap();
    assert_eq!(c.framework, Some("axolotl"));
    assert_eq!(
        c.model_id.as_deref(),
        Some("NousResearch/Meta-Llama-3.1-8B")
    );
    assert_eq!((c.method, c.load_bits), (Some("qlora"), Some(4)));
    assert_eq!(
        (c.pack, c.batch, c.lora_rank),
        (Some(4096), Some(2), Some(32))
    );
    assert_eq!(c.lora_targets.as_deref(), Some("all-linear"));
    assert_eq!(c.optimizer.as_deref(), Some("paged_adamw_8bit"));
    assert_eq!(
        (c.dtype, c.gradient_checkpointing),
        (Some("bf16"), Some(true))
    );
    let modules = (
        "lora_target_modules".to_string(),
        "q_proj,v_proj".to_string(),
    );
    assert!(c.keys.contains(&modules));
    assert!(
        c.keys
            .iter()
            .any(|(k, v)| k == "datasets.type" && v == "alpaca")
    );
}

#[test]
fn torchtune_yaml_with_components() {
    assert!(looks_like_trainer_config(TORCHTUNE));
    let c = parse_trainer_config(TORCHTUNE).unwrap();
    assert_eq!(c.framework, Some("torchtune"));
    assert_eq!(c.model_id.as_deref(), Some("llama3_1_8b"));
    assert_eq!(
        (c.method, c.lora_rank, c.batch),
        (Some("qlora"), Some(8), Some(4))
    );
    assert_eq!(c.lora_targets.as_deref(), Some("q_proj,v_proj,output_proj"));
    assert_eq!(c.optimizer.as_deref(), Some("AdamW"));
    assert_eq!(
        (c.dtype, c.gradient_checkpointing),
        (Some("bf16"), Some(true))
    );
    assert_eq!(c.pack, None);
    assert!(c.keys.iter().any(|(k, _)| k == "tokenizer.path"));
}

#[test]
fn trl_call_and_command_line() {
    let call = r#"SFTConfig(per_device_train_batch_size=4, max_seq_length=2048, bf16=True, gradient_accumulation_steps=8, optim="adamw_8bit")"#;
    assert!(looks_like_trainer_config(call));
    let c = parse_trainer_config(call).unwrap();
    assert_eq!(c.framework, Some("TRL/transformers"));
    assert_eq!(
        (c.batch, c.pack, c.grad_accum),
        (Some(4), Some(2048), Some(8))
    );
    assert_eq!(
        (c.dtype, c.optimizer.as_deref()),
        (Some("bf16"), Some("adamw_8bit"))
    );
    let lora = "trainer = SFTTrainer(model=model, args=args)\nLoraConfig(r=16, target_modules=[\"q_proj\", \"v_proj\"])";
    let c = parse_trainer_config(lora).unwrap();
    assert_eq!((c.model_id, c.lora_rank), (None, Some(16)));
    assert_eq!(c.lora_targets.as_deref(), Some("q_proj,v_proj"));
    let cli = "python -m trl sft --model_name_or_path Qwen/Qwen2.5-7B \\\n  --use_peft --per_device_train_batch_size 2 --bf16";
    let c = parse_trainer_config(cli).unwrap();
    assert_eq!(
        (c.method, c.batch, c.dtype),
        (Some("lora"), Some(2), Some("bf16"))
    );
    assert_eq!(c.model_id.as_deref(), Some("Qwen/Qwen2.5-7B"));
}

#[test]
fn chat_free_and_ps_are_not_configs() {
    let chat = "LoRA on Qwen2.5 7B, batch 2";
    assert!(!looks_like_trainer_config(chat));
    assert_eq!(
        parse_trainer_config(chat),
        Err(TrainerConfigError::NothingKnown { read: 0 })
    );
    let free = "               total        used        free      shared  buff/cache   available\nMem:             119           4          80           0          35         115\nSwap:             15           0          15\n";
    assert!(!looks_like_trainer_config(free));
    assert!(parse_trainer_config(free).is_err());
    let ps = "owner     413388 99.1  6.2 61232004 8123312 pts/3 Rl+ 14:05  20:41 /home/owner/venv/bin/python3 -m trl sft --model_name_or_path Qwen/Qwen2.5-7B --use_peft --per_device_train_batch_size 2";
    assert!(!looks_like_trainer_config(ps));
    let vllm = "owner 412233 3.1 1.2 48211320 1598232 pts/2 Sl+ 14:02 0:41 /usr/bin/python3 /usr/bin/vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.5";
    assert!(!looks_like_trainer_config(vllm));
}

#[test]
fn a_preference_or_rl_config_names_its_objective_by_its_keys() {
    let objective = |t: &str| {
        assert!(looks_like_trainer_config(t), "{t}");
        parse_trainer_config(t).unwrap().objective
    };
    // axolotl's `rl:`, LLaMA-Factory's `stage:` and `pref_loss:`.
    let o = objective("base_model: Qwen/Qwen2.5-7B-Instruct\nrl: dpo\nadapter: lora\nmicro_batch_size: 2\nsequence_len: 2048").unwrap();
    assert_eq!(o.kind.as_deref(), Some("dpo"));
    let o = objective("model_name_or_path: meta-llama/Llama-3.1-8B\nstage: dpo\nfinetuning_type: lora\ncutoff_len: 2048").unwrap();
    assert_eq!(o.kind.as_deref(), Some("dpo"));
    // A reference-free loss under the DPO stage is ORPO's reference-free kind.
    let o = objective("model_name_or_path: meta-llama/Llama-3.1-8B\nstage: dpo\npref_loss: simpo\nfinetuning_type: lora\ncutoff_len: 2048").unwrap();
    assert_eq!(o.kind.as_deref(), Some("orpo"));
    // TRL's call, over several lines, with its generation settings.
    let o = objective("training_args = GRPOConfig(\n    per_device_train_batch_size=8,\n    num_generations=4,\n    max_completion_length=1024,\n    use_vllm=True,\n    vllm_gpu_memory_utilization=0.25,\n    beta=0.04,\n)").unwrap();
    assert_eq!(
        (
            o.kind.as_deref(),
            o.generations,
            o.completion,
            o.fraction,
            o.beta
        ),
        (Some("grpo"), Some(4), Some(1024), Some(0.25), Some(0.04))
    );
    assert_eq!(o.vllm.as_deref(), Some("colocate"));
    // verl's dotted keys and open-instruct's flags.
    let o = objective("algorithm:\n  adv_estimator: grpo\ndata:\n  max_prompt_length: 512\n  max_response_length: 1024\nactor_rollout_ref:\n  rollout:\n    n: 5\n    gpu_memory_utilization: 0.5").unwrap();
    assert_eq!(
        (o.kind.as_deref(), o.prompt, o.completion),
        (Some("grpo"), Some(512), Some(1024))
    );
    let o = objective("python open_instruct/grpo_fast.py --model_name_or_path Qwen/Qwen3-0.6B --num_samples_per_prompt_rollout 8 --response_length 2048 --vllm_gpu_memory_utilization 0.3 --per_device_train_batch_size 1").unwrap();
    assert_eq!((o.generations, o.completion), (Some(8), Some(2048)));
}

#[test]
fn a_scripts_printed_configuration_is_the_runs() {
    let banner = "============================================================\nLLAMA 3.1 8B LoRA FINE-TUNING CONFIGURATION\n============================================================\nModel: meta-llama/Llama-3.1-8B-Instruct\nBatch size: 4\nSequence length: 2048\nNumber of epochs: 1\nLoRA rank: 8\n============================================================\nLoading model: meta-llama/Llama-3.1-8B-Instruct";
    assert!(looks_like_trainer_config(banner));
    let c = parse_trainer_config(banner).unwrap();
    assert_eq!(
        (c.method, c.batch, c.pack, c.lora_rank),
        (Some("lora"), Some(4), Some(2048), Some(8))
    );
    assert_eq!(
        c.model_id.as_deref(),
        Some("meta-llama/Llama-3.1-8B-Instruct")
    );
    // A server's banner of the same shape is the server's.
    let server = "=== vLLM configuration ===\nModel: Qwen/Qwen3-8B\nBatch size: 512\nSequence length: 32768\nServing on port 8000";
    assert!(!looks_like_trainer_config(server));
    // A title alone, with fewer than three settings in words, is a log.
    assert!(!looks_like_trainer_config(
        "Saving configuration\nModel: x\nDone"
    ));
}

#[test]
fn an_sft_config_names_no_objective_whatever_its_values_say() {
    for t in [
        "base_model: Qwen/Qwen2.5-7B\nadapter: lora\nmicro_batch_size: 2\nsequence_len: 2048\noutput_dir: ./qwen-dpo-test\nadam_beta1: 0.9",
        "args = SFTConfig(\n    per_device_train_batch_size=2,\n    max_length=2048,\n    output_dir=\"grpo-ablation\",\n)",
    ] {
        let c = parse_trainer_config(t).unwrap();
        assert_eq!(c.objective, None, "{t}");
    }
}

#[test]
fn a_config_that_evaluates_has_an_eval_batch() {
    // axolotl: evaluation on by val_set_size or evals_per_epoch, its eval
    // batch micro_batch_size unless eval_batch_size says otherwise.
    let c = parse_trainer_config(&format!(
        "{AXOLOTL}val_set_size: 0.05\nevals_per_epoch: 4\n"
    ))
    .unwrap();
    assert_eq!(c.eval_batch, Some(2));
    let c = parse_trainer_config(&format!(
        "{AXOLOTL}val_set_size: 0.05\neval_batch_size: 1\n"
    ))
    .unwrap();
    assert_eq!(c.eval_batch, Some(1));
    // No evaluation: no eval batch.
    let c = parse_trainer_config(&format!("{AXOLOTL}val_set_size: 0\n")).unwrap();
    assert_eq!(c.eval_batch, None);
    assert_eq!(parse_trainer_config(AXOLOTL).unwrap().eval_batch, None);
    // transformers: eval_strategy "steps" with TrainingArguments' default 8.
    let c = parse_trainer_config(
        "TrainingArguments(per_device_train_batch_size=2, max_seq_length=2048, eval_strategy=\"steps\", eval_steps=50)",
    )
    .unwrap();
    assert_eq!(c.eval_batch, Some(8));
    let c = parse_trainer_config(
        "TrainingArguments(per_device_train_batch_size=2, max_seq_length=2048, eval_strategy=\"no\")",
    )
    .unwrap();
    assert_eq!(c.eval_batch, None);
}

#[test]
fn torchtune_loss_dropout_mlp_and_packing_are_read() {
    let cfg = "model:\n  _component_: torchtune.models.gemma2.lora_gemma2_27b\n  lora_attn_modules: ['q_proj', 'k_proj', 'v_proj']\n  apply_lora_to_mlp: True\n  apply_lora_to_output: False\n  lora_rank: 8\n  lora_dropout: 0.0\ndataset:\n  _component_: torchtune.datasets.alpaca_dataset\n  packed: False\nloss:\n  _component_: torchtune.modules.loss.CEWithChunkedOutputLoss\nbatch_size: 8\n";
    let c = parse_trainer_config(cfg).unwrap();
    assert_eq!(
        c.lora_targets.as_deref(),
        Some("q_proj,k_proj,v_proj,gate_proj,up_proj,down_proj")
    );
    assert_eq!(c.lora_dropout, Some(false));
    assert_eq!(
        c.loss.as_ref().map(|l| l.0),
        Some(crate::calc::setup::Loss::Chunked)
    );
    assert!(
        c.keys
            .iter()
            .any(|(k, v)| k == "dataset.packed" && v == "False")
    );
    // The linear CE never builds the logits; dropout above zero is said so.
    let linear = cfg
        .replace("CEWithChunkedOutputLoss", "LinearCrossEntropyLoss")
        .replace("lora_dropout: 0.0", "lora_dropout: 0.05");
    let c = parse_trainer_config(&linear).unwrap();
    assert_eq!(c.loss.map(|l| l.0), Some(crate::calc::setup::Loss::Fused));
    assert_eq!(c.lora_dropout, Some(true));
}

#[test]
fn fused_loss_flags_of_each_stack() {
    for cfg in [
        "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nsequence_len: 4096\nmicro_batch_size: 2\nplugins:\n  - axolotl.integrations.cut_cross_entropy.CutCrossEntropyPlugin\ncut_cross_entropy: true\n",
        "base_model: meta-llama/Llama-3.1-8B\nadapter: lora\nsequence_len: 4096\nmicro_batch_size: 2\nliger_fused_linear_cross_entropy: true\n",
        "model_name_or_path: Qwen/Qwen2.5-7B\nfinetuning_type: lora\ncutoff_len: 2048\nenable_liger_kernel: true\n",
        "args = SFTConfig(\n    per_device_train_batch_size=2,\n    max_seq_length=2048,\n    use_liger_kernel=True,\n)\n",
    ] {
        let c = parse_trainer_config(cfg).unwrap();
        assert_eq!(
            c.loss.as_ref().map(|l| l.0),
            Some(crate::calc::setup::Loss::Fused),
            "{cfg}"
        );
    }
    // Off is no choice at all: the stack's own loss stays.
    let off = parse_trainer_config(
        "model_name_or_path: Qwen/Qwen2.5-7B\nfinetuning_type: lora\ncutoff_len: 2048\nenable_liger_kernel: false\n",
    )
    .unwrap();
    assert_eq!(off.loss, None);
}

#[test]
fn a_scripts_argparse_defaults_are_the_run_it_was_run_with() {
    let text = "    # Model configuration\n    parser.add_argument(\"--model_name\", type=str, default=\"unsloth/Meta-Llama-3.1-70B-bnb-4bit\",\n                        help=\"Model name or path\")\n    parser.add_argument(\"--batch_size\", type=int, default=8,\n                        choices=[1, 2, 4, 8, 16, 32],\n                        help=\"Per device training batch size\")\n    parser.add_argument('--seq_length', type=int, default=2048)\n    parser.add_argument(\"--gradient_checkpointing\", action=\"store_true\",\n                        help=\"Enable gradient checkpointing (saves memory)\")\n    parser.add_argument(\"--lora_rank\", type=int, default=None)";
    assert!(looks_like_trainer_config(text));
    let c = parse_trainer_config(text).unwrap();
    assert_eq!(c.batch, Some(8));
    assert_eq!(c.pack, Some(2048));
    assert_eq!(
        c.model_id.as_deref(),
        Some("unsloth/Meta-Llama-3.1-70B-bnb-4bit")
    );
    // A store_true flag not passed is off; a None default sets nothing.
    assert_eq!(c.gradient_checkpointing, Some(false));
    assert_eq!(c.lora_rank, None);
    // The 4-bit checkpoint says the method: adapters on a quantized base.
    assert_eq!(c.method, Some("qlora"));
    assert!(c.method_default.is_some());
}
