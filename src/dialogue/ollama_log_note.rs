//! An Ollama server log in the dialogue: the runner's context and parallel
//! slots, which size its KV cache; what it holds now is `ollama ps`'s to say.

use crate::calc::units::grouped;
use crate::extract::ollama_log::OllamaLog;
use crate::reply::Block;

/// The note for a pasted Ollama server log.
pub fn ollama_log_blocks(log: &OllamaLog) -> Vec<Block> {
    let mut read = Vec::new();
    if let Some(c) = log.ctx_size {
        read.push(format!("context {}", grouped(c)));
    }
    if let Some(p) = log.parallel {
        read.push(format!("{p} parallel slots"));
    }
    if let Some(l) = log.gpu_layers {
        read.push(format!("{l} layers on the GPU"));
    }
    let mut text = format!(
        "Read from your Ollama server log: it started a runner with {}. It is the inference server's log, so nothing in it changes your training run (its `--batch-size` is llama.cpp's prompt batch, not your trainer's).",
        if read.is_empty() {
            "no settings shown".to_string()
        } else {
            read.join(", ")
        }
    );
    if let (Some(slot), Some(c), Some(p)) = (log.per_slot_tokens(), log.ctx_size, log.parallel) {
        text.push_str(&format!(
            " Its KV cache is sized for the whole `--ctx-size` {}, shared by its {p} slots: {} / {p} = {} tokens each (llama.cpp's server gives each slot n_ctx / n_parallel; Ollama passes each request's context × parallel). Ollama's FAQ says required memory scales with `OLLAMA_NUM_PARALLEL` × `OLLAMA_CONTEXT_LENGTH` (knowledge/questions.md row 4).",
            grouped(c),
            grouped(c),
            grouped(slot)
        ));
    }
    if let Some(failed) = log.failed_alloc_bytes {
        return vec![Block::Text(text), Block::Text(failed_note(log, failed))];
    }
    text.push_str(
        " What it holds right now is in `ollama ps`: paste what it prints and I will set it against your run.",
    );
    vec![Block::Text(text)]
}

/// The runner could not allocate: the server's own knobs, each with what
/// it does to that allocation. The training run is not what failed.
fn failed_note(log: &OllamaLog, failed: u64) -> String {
    let mib = failed as f64 / 1_048_576.0;
    let what = if log.kv_cache_failed {
        "its KV cache"
    } else {
        "a buffer"
    };
    let mut text = format!(
        "Ollama's runner failed to allocate {what}: {} bytes = {mib:.2} MiB. That is the server failing, not your training run, so the OOM ladder for training does not apply.",
        grouped(failed)
    );
    if log.kv_cache_failed
        && let (Some(ctx), Some(p)) = (log.ctx_size, log.parallel)
    {
        let per = ctx / p.max(1);
        text.push_str(&format!(
            " The KV cache grows with the context it holds, {} tokens = {p} parallel slots × {} context, so: `OLLAMA_NUM_PARALLEL=1` makes it {} / {p} = {:.2} MiB; `OLLAMA_CONTEXT_LENGTH=8192` with one slot makes it {mib:.2} × 8,192 / {} = {:.2} MiB.",
            grouped(ctx),
            grouped(per),
            format_args!("{mib:.2}"),
            mib / p.max(1) as f64,
            grouped(ctx),
            mib * 8192.0 / ctx as f64
        ));
    }
    text.push_str(" Both are the server's environment: `sudo systemctl edit ollama`, add `[Service]` and `Environment=\"OLLAMA_NUM_PARALLEL=1\"` (and `Environment=\"OLLAMA_CONTEXT_LENGTH=8192\"`), then `sudo systemctl restart ollama`. I run nothing; these are for you to run.");
    text
}
