//! Pasted evidence that changes no answer but must be read correctly: the
//! nvidia-smi table and its compute-apps CSV (on GB10 their memory cells say
//! "Not Supported", so they are explained and `free -g` is asked for), and
//! the dispatch to the notes for `nvidia-smi -q` and Ollama's log.

use crate::dialogue::absorb::Evidence;
use crate::dialogue::questions::by_topic;
use crate::extract::nvidia_smi::SmiProcess;
use crate::extract::smi_csv::{SmiCsv, SmiField};
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

/// What a pasted piece of evidence says, each kind by its own note.
pub fn evidence_blocks(e: &Evidence, have_free: bool, k: &Knowledge) -> Vec<Block> {
    match e {
        Evidence::OllamaLog(log) => crate::dialogue::ollama_log_note::ollama_log_blocks(log),
        Evidence::SmiQuery(q) => crate::dialogue::smi_query_note::smi_query_blocks(q, k),
        Evidence::SmiCsv(c) => smi_csv_blocks(c, have_free, k),
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
            smi_blocks(gpu, &t.processes, !t.gpus.is_empty(), have_free, k)
        }
        Evidence::ComputeApps(p) => smi_blocks(
            Some("Your `nvidia-smi --query-compute-apps` output:".to_string()),
            p,
            true,
            have_free,
            k,
        ),
    }
}

/// "power.draw 11.17 W", "temperature.gpu 35 °C", "memory.free [N/A]".
fn field_text(f: &SmiField) -> String {
    let value = match (&f.unit, f.name.as_str()) {
        // The header's unit is already in the value ("11.17 W", "0 %").
        _ if f.missing() => f.value.clone(),
        (Some(unit), _) if !f.value.ends_with(unit.as_str()) => format!("{} {unit}", f.value),
        (None, "temperature.gpu" | "temperature.memory") => format!("{} °C", f.value),
        _ => f.value.clone(),
    };
    format!("{} {value}", f.name)
}

/// A one-off `--query-gpu` CSV: each GPU's fields as readings, and on GB10
/// why its memory fields are `[N/A]` and where the pool's figure is.
fn smi_csv_blocks(c: &SmiCsv, have_free: bool, k: &Knowledge) -> Vec<Block> {
    let mut blocks = vec![Block::Text(
        "Your `nvidia-smi --query-gpu` snapshot (readings only; none of them is a run setting):"
            .into(),
    )];
    blocks.push(Block::List(
        c.rows
            .iter()
            .map(|row| row.iter().map(field_text).collect::<Vec<_>>().join(", "))
            .collect(),
    ));
    let memory: Vec<&SmiField> = c
        .rows
        .iter()
        .flatten()
        .filter(|f| f.name.starts_with("memory."))
        .collect();
    if memory.iter().any(|f| f.missing()) {
        blocks.extend(by_topic("nvidia_smi_gb10", k).map(Block::Text));
    } else if !memory.is_empty() {
        blocks.push(Block::Text(
            "nvidia-smi's memory fields are the GPU's own view; on a Spark the GPU and the CPU share one pool, and the budget comes from the kernel's `available` figure, not from these.".into(),
        ));
    }
    if !memory.is_empty() && !have_free {
        blocks.push(Block::Text(format!(
            "The real evidence for what your run can use is `{}`: run it on the Spark and paste all three lines it prints.",
            k.command("free").command
        )));
    }
    blocks
}

/// What the pasted nvidia-smi output says, and what it cannot say on GB10.
fn smi_blocks(
    gpu_line: Option<String>,
    processes: &[SmiProcess],
    has_gpu_rows: bool,
    have_free: bool,
    k: &Knowledge,
) -> Vec<Block> {
    let mut blocks = Vec::new();
    blocks.extend(gpu_line.map(Block::Text));
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
    // Asked only when it was not given (in this turn or before).
    if have_free {
        return blocks;
    }
    blocks.push(Block::Text(format!(
        "The real evidence for what your run can use is `{}`: run it on the Spark and paste all three lines it prints.",
        k.command("free").command
    )));
    blocks
}
