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
    text.push_str(
        " What it holds right now is in `ollama ps`: paste what it prints and I will set it against your run.",
    );
    vec![Block::Text(text)]
}
