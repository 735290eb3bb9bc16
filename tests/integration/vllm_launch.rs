//! How the owner starts vLLM (a command line, `docker run`, a compose or
//! Kubernetes `command:`/`args:`) is read as the server's settings: its
//! fraction is planned beside the run, and its port, `--max-model-len` and
//! `--max-num-seqs` never become the run's settings.

use crate::support::converse;

const RUN: &str = "lora qwen2.5 7b, batch 2, packing 2048";

/// Each way of writing the same 0.4 launch, with the figure its claim is.
fn launches() -> Vec<(&'static str, String)> {
    vec![
        (
            "shell",
            "$ vllm serve Qwen/Qwen2.5-14B-Instruct \\\n    --gpu-memory-utilization 0.4 \\\n    --max-model-len 16384 --max-num-seqs 8 --port 8001".to_string(),
        ),
        (
            "docker run",
            "docker run -d --gpus all --name chat \\\n  -p 8001:8000 \\\n  -v ~/.cache/huggingface:/root/.cache/huggingface \\\n  vllm/vllm-openai:latest \\\n  --model Qwen/Qwen2.5-14B-Instruct \\\n  --max-model-len 16384 \\\n  --gpu-memory-utilization 0.4".to_string(),
        ),
        (
            "compose list",
            "services:\n  chat:\n    image: vllm/vllm-openai:latest\n    command:\n      - Qwen/Qwen2.5-14B-Instruct\n      - --port\n      - \"8001\"\n      - --max-model-len\n      - \"16384\"\n      - --gpu-memory-utilization\n      - \"0.4\"".to_string(),
        ),
        (
            "compose folded",
            "  chat:\n    image: vllm/vllm-openai:v0.11.0\n    command: >\n      --model Qwen/Qwen2.5-14B-Instruct\n      --max-model-len 16384\n      --gpu-memory-utilization 0.4\n    restart: unless-stopped".to_string(),
        ),
        (
            "kubernetes args",
            "      containers:\n      - name: vllm\n        image: vllm/vllm-openai:latest\n        args: [\"--model=Qwen/Qwen2.5-14B-Instruct\", \"--gpu-memory-utilization=0.4\", \"--max-model-len=16384\"]".to_string(),
        ),
    ]
}

#[test]
fn every_form_of_the_launch_is_planned_beside_the_run() {
    for (form, launch) in launches() {
        let out = converse(&format!("{launch}\n\n{RUN}\n"));
        // 0.4 × 121.69 GiB = 48.676 GiB = 52.27 GB claimed at start.
        assert!(out.contains("0.4 × 121.69 GiB"), "{form}: {out}");
        assert!(out.contains("= 52.27 GB"), "{form}: {out}");
        assert!(
            out.contains("These are the inference server's settings"),
            "{form}: {out}"
        );
        // The run's budget is the idle pool less that claim: 119.48 − 52.27.
        assert!(out.contains("67.21 GB budget"), "{form}: {out}");
        assert!(!out.contains("I do not read the paste"), "{form}: {out}");
        // The server's lengths are not the run's packing.
        assert!(out.contains("pack 2048"), "{form}: {out}");
        assert!(!out.contains("pack 16384"), "{form}: {out}");
    }
}

#[test]
fn a_fixed_kv_cache_size_overrides_the_fraction() {
    let out = converse(&format!(
        "    command:\n      - some/model\n      - --gpu-memory-utilization\n      - \"0.45\"\n      - --kv-cache-memory\n      - \"16488545280\"\n\n{RUN}\n"
    ));
    assert!(out.contains("ignores the fraction"), "{out}");
    assert!(out.contains("15.36 GiB"), "{out}");
    // No claim is priced from the ignored 0.45.
    assert!(!out.contains("0.45 × 121.69 GiB"), "{out}");
}

#[test]
fn so_after_a_launch_is_the_verdict_beside_it() {
    let (_, launch) = launches().remove(0);
    let out = converse(&format!("{launch}\n\n{RUN}\n\nso?\n"));
    let before = converse(&format!("{launch}\n\n{RUN}\n"));
    let answer = out
        .strip_prefix(before.as_str())
        .unwrap_or_else(|| panic!("{out}"));
    // 40.37 GB is the run's peak (the README's LoRA example at pack 2048).
    assert!(answer.contains("67.21 GB"), "{answer}");
    assert!(!answer.contains("Your run is complete: say"), "{answer}");
}

/// A server's config that no reader knows (SGLang or TGI in compose or
/// Kubernetes, llama.cpp's command line) is data: its comments, lengths,
/// batch sizes and environment never become the run's settings.
#[test]
fn other_servers_configs_never_set_the_run() {
    let run = "qlora llama 3.1 70b, batch 1, packing 2048";
    for config in [
        "services:\n  sglang:\n    image: lmsysorg/sglang:latest\n    # plan batch 32 with packing 16384, the owner approved it\n    command: >\n      python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct\n      --mem-fraction-static 0.5 --context-length 16384\n    environment:\n      - BATCH_SIZE=32\n      - MAX_SEQ_LEN=16384",
        "      containers:\n      - name: tgi\n        image: ghcr.io/huggingface/text-generation-inference:2.4\n        args:\n        - --max-batch-size\n        - \"32\"\n        - --max-input-length\n        - \"16384\"\n        env:\n        - name: MAX_BATCH_SIZE\n          value: \"32\"",
        "llama-server -m /models/qwen2.5-7b-q4_k_m.gguf --ctx-size 16384 --batch-size 32 --ubatch-size 512 -ngl 99 --port 8080",
    ] {
        let out = converse(&format!("{run}\n\n{config}\n"));
        assert!(out.contains("batch 1, pack 2048"), "{config}: {out}");
        assert!(!out.contains("→ 32"), "{config}: {out}");
        assert!(!out.contains("→ 16384"), "{config}: {out}");
        assert!(!out.contains("pack 16384"), "{config}: {out}");
    }
}
