//! Pasted evidence that changes no answer but must be read correctly: the
//! nvidia-smi table and its compute-apps CSV. On GB10 their memory cells say
//! "Not Supported", so they are explained and `free -g` is asked for.

use crate::dialogue::absorb::Evidence;
use crate::dialogue::questions::by_topic;
use crate::extract::nvidia_smi::SmiProcess;
use crate::knowledge::Knowledge;
use crate::reply::Block;

fn process_line(p: &SmiProcess) -> String {
    let kind = match p.kind.as_str() {
        "G" => "graphics",
        "C" => "compute",
        "C+G" => "compute and graphics",
        other => other,
    };
    let memory = if p.memory_text.is_empty() {
        "memory not shown".to_string()
    } else {
        format!("nvidia-smi shows {}", p.memory_text)
    };
    format!("pid {} `{}` ({kind}): {memory}", p.pid, p.name)
}

/// What the pasted nvidia-smi output says, and what it cannot say on GB10.
pub fn evidence_blocks(e: &Evidence, k: &Knowledge) -> Vec<Block> {
    let (gpu_line, processes) = match e {
        Evidence::OllamaLog(log) => return ollama_log_blocks(log),
        Evidence::SmiQuery(q) => return crate::dialogue::smi_query_note::smi_query_blocks(q, k),
        Evidence::SmiTable(t) => {
            let gpu = t.gpus.first().map(|g| {
                format!(
                    "Your nvidia-smi table: GPU {} {}, {}, {}, memory cell \"{}\".",
                    g.index,
                    g.name,
                    g.temp_c
                        .map_or("temperature not shown".into(), |c| format!("{c} °C")),
                    g.power_w
                        .map_or("power not shown".into(), |w| format!("{w} W")),
                    g.memory_text
                )
            });
            (gpu, &t.processes)
        }
        Evidence::ComputeApps(p) => (
            Some("Your `nvidia-smi --query-compute-apps` output:".to_string()),
            p,
        ),
    };
    let mut blocks = Vec::new();
    blocks.extend(gpu_line.map(Block::Text));
    let has_gpu_rows = match e {
        Evidence::SmiTable(t) => !t.gpus.is_empty(),
        Evidence::ComputeApps(_) | Evidence::OllamaLog(_) | Evidence::SmiQuery(_) => true,
    };
    if processes.is_empty() {
        blocks.push(Block::Text(
            "No process rows in what you pasted (nvidia-smi lists them under `Processes:`).".into(),
        ));
    } else {
        blocks.push(Block::List(processes.iter().map(process_line).collect()));
        let compute = processes.iter().filter(|p| p.kind.contains('C')).count();
        blocks.push(Block::Text(if compute == 0 {
            "Only graphics processes (the desktop) are listed; they hold little. An empty-looking nvidia-smi does not mean the pool is free: page cache and CPU-side memory never show there.".into()
        } else {
            format!("{compute} compute process(es) are listed. To know what each holds and whether it is capped, paste `ps aux | grep -E 'vllm|ollama|trl|axolotl' | grep -v grep`.")
        }));
    }
    if !has_gpu_rows {
        // The rest of a table whose GPU rows came in the turn before.
        return blocks;
    }
    blocks.extend(by_topic("nvidia_smi_gb10", k).map(Block::Text));
    blocks.push(Block::Text(format!(
        "The real evidence for what your run can use is `{}`: run it on the Spark and paste all three lines it prints.",
        k.command("free").command
    )));
    blocks
}

/// An Ollama server log: the runner's context and parallel slots, which
/// size its KV cache; what it holds now is `ollama ps`'s to say.
fn ollama_log_blocks(log: &crate::extract::ollama_log::OllamaLog) -> Vec<Block> {
    use crate::calc::units::grouped;
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
