//! What the OOM message's own figures say, set beside the plan: what the
//! process held, what was in use outside it, and whether the allocator's
//! cache was fragmented.

use crate::calc::plan::Plan;
use crate::calc::units::{GIB, centi_gb_down, centi_gb_up, show_centi};
use crate::extract::oom_figures::{OomFigures, Printed};

/// "102.33 GiB (109.88 GB)": PyTorch's figure, then decimal GB. Memory in use
/// rounds up, free memory rounds down.
fn both(p: &Printed, in_use: bool) -> String {
    let centi = if in_use {
        centi_gb_up(p.bytes)
    } else {
        centi_gb_down(p.bytes)
    };
    format!("{} ({} GB)", p.text, show_centi(centi))
}

/// The note, or an empty string when the message printed too little to say
/// anything beyond "Tried to allocate".
pub fn figures_note(f: &OomFigures, plan: Option<&Plan>) -> String {
    let mut sentences = Vec::new();
    if let Some(k) = &f.killed {
        let rss = k.anon_rss_kib.map_or(String::new(), |kib| {
            format!(
                ", anon-rss {} kB = {} GB",
                crate::calc::units::grouped(kib),
                show_centi(centi_gb_up(kib as f64 * 1024.0))
            )
        });
        sentences.push(format!(
            "The kernel's OOM killer killed `{}` (pid {}{rss}). It picks its victim by oom_score (mostly the memory a process holds, shifted by oom_score_adj; proc(5)), so the process killed is not always the one that filled the pool: if `{}` is not your trainer, something else ran the box out of memory, and `ps aux` and `free -g` show what holds it now.",
            k.name, k.pid, k.name
        ));
    }
    if let Some(held) = &f.process_in_use {
        let mut s = format!("From the message: this process held {}", both(held, true));
        if let Some(a) = &f.allocated_by_pytorch {
            s.push_str(&format!(", {} of it allocated by PyTorch", both(a, true)));
        }
        s.push('.');
        if let Some(plan) = plan {
            let held_centi = centi_gb_up(held.bytes);
            let peak = plan.estimate.total_centi_gb;
            s.push_str(&format!(
                " The plan's peak for the run as planned is {} GB; {}",
                show_centi(peak),
                if held_centi > peak {
                    "the process held more than that when it failed: samples longer than the packing length, fragmentation, or a setting I have not been told (tell me) can explain the difference."
                } else {
                    "the process had not reached it yet when the pool ran out."
                }
            ));
        }
        sentences.push(s);
    } else if let (Some(a), Some(r)) = (&f.allocated_by_pytorch, &f.reserved_total) {
        sentences.push(format!(
            "From the message: PyTorch had allocated {} and reserved {} in all.",
            both(a, true),
            both(r, true)
        ));
    }
    if let (Some(outside), Some(cap), Some(free)) =
        (f.outside_process_bytes(), &f.capacity, &f.free)
    {
        sentences.push(format!(
            "The GPU had {} free of {}, so {:.2} GiB ({} GB) was in use outside this process (capacity less free less this process): other processes, the OS, and on a Spark the page cache too, which CUDA counts as used. Step 1 and a look at the pool (`free -g`, `ps aux`) are about that share.",
            both(free, false),
            both(cap, false),
            outside / GIB,
            show_centi(centi_gb_up(outside))
        ));
    }
    if let (Some(spare), Some(tried)) = (&f.reserved_unallocated, &f.tried)
        && spare.bytes >= tried.bytes
    {
        sentences.push(format!(
            "{} was reserved by PyTorch but unallocated, more than the {} it asked for: the allocator's cached blocks were too fragmented to serve the request.",
            spare.text, tried.text
        ));
    }
    sentences.join(" ")
}
