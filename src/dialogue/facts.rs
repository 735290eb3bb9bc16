//! What the owner has told headroom so far, each answer with the words it
//! came from and when; rebuilt from the raw transcript on every start.

use crate::calc::arch::Arch;
use crate::calc::setup::{
    Attention, Dtype, LoraTargets, Loss, Method, Optimizer, Precision, Sharding,
};
use crate::extract::free::FreeReading;
use crate::extract::slots::{Found, Slot};
use jiff::Timestamp;

/// A remembered answer: the value, the owner's words, and when they said it.
#[derive(Debug, Clone, PartialEq)]
pub struct Known<T> {
    pub value: T,
    pub words: String,
    pub at: Timestamp,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ModelChoice {
    Catalog(String),
    Params(u64),
    Config { arch: Arch, label: String },
}

/// A `free` paste: the raw text is kept so every budget is recomputed from it.
#[derive(Debug, Clone, PartialEq)]
pub struct FreePaste {
    pub raw: String,
    pub reading: FreeReading,
}

/// Names of the answers, for `/forget` and for asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotName {
    Model,
    Method,
    Dtype,
    Batch,
    Pack,
    Free,
    Optimizer,
    Checkpointing,
    Rank,
    Targets,
    Dropout,
    Precision,
    Attention,
    Loss,
    Nodes,
    Sharding,
    Offload,
    Framework,
    EvalBatch,
    Resume,
    Loader,
    Prequantized,
    Packed,
    Objective,
}

impl SlotName {
    pub const ALL: [SlotName; 24] = [
        SlotName::Model,
        SlotName::Method,
        SlotName::Dtype,
        SlotName::Batch,
        SlotName::Pack,
        SlotName::Free,
        SlotName::Optimizer,
        SlotName::Checkpointing,
        SlotName::Rank,
        SlotName::Targets,
        SlotName::Dropout,
        SlotName::Precision,
        SlotName::Attention,
        SlotName::Loss,
        SlotName::Nodes,
        SlotName::Sharding,
        SlotName::Offload,
        SlotName::Framework,
        SlotName::EvalBatch,
        SlotName::Resume,
        SlotName::Loader,
        SlotName::Prequantized,
        SlotName::Packed,
        SlotName::Objective,
    ];

    pub fn key(self) -> &'static str {
        crate::dialogue::slot_table::def(self).key
    }

    pub fn parse(word: &str) -> Option<SlotName> {
        crate::dialogue::slot_table::parse(word)
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    pub model: Option<Known<ModelChoice>>,
    pub method: Option<Known<Method>>,
    pub dtype: Option<Known<Dtype>>,
    pub batch: Option<Known<u64>>,
    pub pack: Option<Known<u64>>,
    pub free: Option<Known<FreePaste>>,
    pub optimizer: Option<Known<Optimizer>>,
    pub checkpointing: Option<Known<bool>>,
    pub rank: Option<Known<u64>>,
    pub targets: Option<Known<LoraTargets>>,
    pub dropout: Option<Known<bool>>,
    pub precision: Option<Known<Precision>>,
    pub attention: Option<Known<Attention>>,
    pub loss: Option<Known<Loss>>,
    pub nodes: Option<Known<u64>>,
    pub sharding: Option<Known<Sharding>>,
    pub offload: Option<Known<bool>>,
    pub framework: Option<Known<String>>,
    pub eval_batch: Option<Known<u64>>,
    pub resume: Option<Known<bool>>,
    pub loader: Option<Known<crate::calc::runtime::Loader>>,
    pub prequantized: Option<Known<bool>>,
    pub packed: Option<Known<bool>>,
    pub objective: Option<Known<crate::calc::objective::ObjectiveSpec>>,
}

/// One answer that changed, for the acknowledgement.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    pub slot: SlotName,
    pub value: String,
    pub words: String,
    /// The value it replaced, when the owner changed an answer.
    pub previous: Option<String>,
}

/// Is `params` the size a catalog name already states ("Llama 3.1 70B"
/// for 70B, "Mixtral 8x7B" for 8x7B is not read as 7B)?
fn same_size(model: &ModelChoice, params: u64) -> bool {
    let ModelChoice::Catalog(name) = model else {
        return false;
    };
    static SIZE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| crate::extract::re(r"(?i)(?:^|[\s_-])(\d+(?:\.\d+)?)b\b"));
    SIZE.captures_iter(name).any(|c| {
        c[1].parse::<f64>()
            .is_ok_and(|b| ((b * 1e9) as u64).abs_diff(params) * 100 <= params)
    })
}

fn set<T: Clone + PartialEq>(
    cell: &mut Option<Known<T>>,
    value: T,
    words: &str,
    at: Timestamp,
    slot: SlotName,
    show: impl Fn(&T) -> String,
) -> Option<Update> {
    let previous = cell.as_ref().map(|k| k.value.clone());
    if previous.as_ref() == Some(&value) {
        return None;
    }
    let update = Update {
        slot,
        value: show(&value),
        words: words.to_string(),
        previous: previous.as_ref().map(&show),
    };
    *cell = Some(Known {
        value,
        words: words.to_string(),
        at,
    });
    Some(update)
}

pub fn show_model(m: &ModelChoice) -> String {
    match m {
        ModelChoice::Catalog(name) => name.clone(),
        ModelChoice::Params(p) => {
            format!("{} parameters", crate::calc::model_spec::params_label(*p))
        }
        ModelChoice::Config { label, .. } => label.clone(),
    }
}

pub fn show_checkpointing(on: &bool) -> String {
    if *on { "on" } else { "off" }.to_string()
}

fn on_off(on: &bool) -> String {
    show_checkpointing(on)
}

impl Facts {
    /// The run's objective, supervised fine-tuning unless one was named.
    pub fn objective_or_sft(&self) -> crate::calc::objective::Objective {
        self.objective
            .as_ref()
            .and_then(|o| o.value.build().ok())
            .unwrap_or(crate::calc::objective::Objective::Sft)
    }

    /// Apply one extracted slot; returns what changed.
    pub fn absorb(&mut self, found: &Found, at: Timestamp) -> Option<Update> {
        let w = found.words.as_str();
        match &found.slot {
            Slot::Model(name) => set(
                &mut self.model,
                ModelChoice::Catalog(name.clone()),
                w,
                at,
                SlotName::Model,
                show_model,
            ),
            // "70B QLoRA is about 40 GB" said of the run's own Llama 3.1
            // 70B names its size, not another model.
            Slot::Params(p) if self.model.as_ref().is_some_and(|m| same_size(&m.value, *p)) => None,
            Slot::Params(p) => set(
                &mut self.model,
                ModelChoice::Params(*p),
                w,
                at,
                SlotName::Model,
                show_model,
            ),
            Slot::Method(m) => set(&mut self.method, *m, w, at, SlotName::Method, |m| {
                m.label().to_string()
            }),
            Slot::Dtype(d) => set(&mut self.dtype, *d, w, at, SlotName::Dtype, |d| {
                d.key().to_string()
            }),
            Slot::Batch(b) => set(&mut self.batch, *b, w, at, SlotName::Batch, u64::to_string),
            Slot::Pack(p) => set(&mut self.pack, *p, w, at, SlotName::Pack, u64::to_string),
            Slot::Optimizer(o) => set(&mut self.optimizer, *o, w, at, SlotName::Optimizer, |o| {
                o.key().to_string()
            }),
            Slot::GradCheckpointing(on) => set(
                &mut self.checkpointing,
                *on,
                w,
                at,
                SlotName::Checkpointing,
                show_checkpointing,
            ),
            Slot::LoraRank(r) => set(&mut self.rank, *r, w, at, SlotName::Rank, u64::to_string),
            Slot::LoraTargets(t) => set(
                &mut self.targets,
                t.clone(),
                w,
                at,
                SlotName::Targets,
                |t| t.label(),
            ),
            Slot::LoraDropout(on) => set(&mut self.dropout, *on, w, at, SlotName::Dropout, on_off),
            Slot::Precision(p) => set(&mut self.precision, *p, w, at, SlotName::Precision, |p| {
                p.key().to_string()
            }),
            Slot::Attention(a) => set(&mut self.attention, *a, w, at, SlotName::Attention, |a| {
                a.key().to_string()
            }),
            Slot::Loss(l) => set(&mut self.loss, *l, w, at, SlotName::Loss, |l| {
                l.key().to_string()
            }),
            Slot::Nodes(n) => set(&mut self.nodes, *n, w, at, SlotName::Nodes, u64::to_string),
            Slot::Sharding(s) => set(&mut self.sharding, *s, w, at, SlotName::Sharding, |s| {
                s.key().to_string()
            }),
            Slot::Offload(on) => set(&mut self.offload, *on, w, at, SlotName::Offload, on_off),
            Slot::EvalBatch(n) => set(
                &mut self.eval_batch,
                *n,
                w,
                at,
                SlotName::EvalBatch,
                u64::to_string,
            ),
            Slot::Resume(on) => set(&mut self.resume, *on, w, at, SlotName::Resume, on_off),
            Slot::Loader(l) => set(&mut self.loader, *l, w, at, SlotName::Loader, |l| {
                l.label().to_string()
            }),
            Slot::Packed(on) => set(&mut self.packed, *on, w, at, SlotName::Packed, on_off),
            // "16 generations" after "GRPO with 8" changes that part only.
            Slot::Objective(spec) => {
                let merged = match &self.objective {
                    Some(known) => known.value.merged(spec),
                    None => spec.clone(),
                };
                set(
                    &mut self.objective,
                    merged,
                    w,
                    at,
                    SlotName::Objective,
                    crate::calc::objective::ObjectiveSpec::show,
                )
            }
            Slot::Prequantized(on) => set(
                &mut self.prequantized,
                *on,
                w,
                at,
                SlotName::Prequantized,
                on_off,
            ),
            Slot::Framework(key) => set(
                &mut self.framework,
                key.clone(),
                w,
                at,
                SlotName::Framework,
                String::clone,
            ),
            Slot::Available(reading) => Some(self.absorb_free(
                FreePaste {
                    raw: w.to_string(),
                    reading: reading.clone(),
                },
                at,
            )),
            // Questions and refusals are handled by the engine, not kept.
            Slot::Solve(_) | Slot::TensorParallel | Slot::UnknownModel(_) | Slot::OutOfRange(_) => {
                None
            }
        }
    }

    pub fn absorb_config(&mut self, arch: Arch, label: String, at: Timestamp) -> Option<Update> {
        let words = label.clone();
        set(
            &mut self.model,
            ModelChoice::Config { arch, label },
            &words,
            at,
            SlotName::Model,
            show_model,
        )
    }

    pub fn absorb_free(&mut self, paste: FreePaste, at: Timestamp) -> Update {
        let value = format!("available {}", paste.reading.available_text);
        let flag = paste.reading.unit.flag();
        let words = if paste.reading.unit == crate::extract::free::FreeUnit::Said {
            format!("your words \"{}\"", paste.raw)
        } else {
            "your pasted free output".into()
        };
        self.free = Some(Known {
            value: paste,
            words,
            at,
        });
        Update {
            slot: SlotName::Free,
            value,
            words: flag.to_string(),
            previous: None,
        }
    }

    /// Drop one remembered answer; true when there was one.
    pub fn forget(&mut self, slot: SlotName) -> bool {
        fn take<T>(c: &mut Option<T>) -> bool {
            c.take().is_some()
        }
        match slot {
            SlotName::Model => take(&mut self.model),
            SlotName::Method => take(&mut self.method),
            SlotName::Dtype => take(&mut self.dtype),
            SlotName::Batch => take(&mut self.batch),
            SlotName::Pack => take(&mut self.pack),
            SlotName::Free => take(&mut self.free),
            SlotName::Optimizer => take(&mut self.optimizer),
            SlotName::Checkpointing => take(&mut self.checkpointing),
            SlotName::Rank => take(&mut self.rank),
            SlotName::Targets => take(&mut self.targets),
            SlotName::Dropout => take(&mut self.dropout),
            SlotName::Precision => take(&mut self.precision),
            SlotName::Attention => take(&mut self.attention),
            SlotName::Loss => take(&mut self.loss),
            SlotName::Nodes => take(&mut self.nodes),
            SlotName::Sharding => take(&mut self.sharding),
            SlotName::Offload => take(&mut self.offload),
            SlotName::Framework => take(&mut self.framework),
            SlotName::Objective => take(&mut self.objective),
            SlotName::EvalBatch => take(&mut self.eval_batch),
            SlotName::Resume => take(&mut self.resume),
            SlotName::Loader => take(&mut self.loader),
            SlotName::Prequantized => take(&mut self.prequantized),
            SlotName::Packed => take(&mut self.packed),
        }
    }

    /// What the owner has answered, as (slot, value, words, when).
    pub fn answered(&self) -> Vec<(SlotName, String, String, Timestamp)> {
        fn row<T>(
            out: &mut Vec<(SlotName, String, String, Timestamp)>,
            slot: SlotName,
            cell: &Option<Known<T>>,
            show: impl Fn(&T) -> String,
        ) {
            if let Some(k) = cell {
                out.push((slot, show(&k.value), k.words.clone(), k.at));
            }
        }
        let mut out = Vec::new();
        row(&mut out, SlotName::Model, &self.model, show_model);
        row(&mut out, SlotName::Method, &self.method, |m| {
            m.label().into()
        });
        row(&mut out, SlotName::Dtype, &self.dtype, |d| d.key().into());
        row(&mut out, SlotName::Batch, &self.batch, u64::to_string);
        row(&mut out, SlotName::Pack, &self.pack, u64::to_string);
        row(&mut out, SlotName::Free, &self.free, |f| {
            format!(
                "`{}` available {}",
                f.reading.unit.flag(),
                f.reading.available_text
            )
        });
        row(&mut out, SlotName::Optimizer, &self.optimizer, |o| {
            o.key().into()
        });
        row(
            &mut out,
            SlotName::Checkpointing,
            &self.checkpointing,
            show_checkpointing,
        );
        row(&mut out, SlotName::Rank, &self.rank, u64::to_string);
        row(
            &mut out,
            SlotName::Targets,
            &self.targets,
            LoraTargets::label,
        );
        row(&mut out, SlotName::Dropout, &self.dropout, on_off);
        row(&mut out, SlotName::Precision, &self.precision, |p| {
            p.key().into()
        });
        row(&mut out, SlotName::Attention, &self.attention, |a| {
            a.key().into()
        });
        row(&mut out, SlotName::Loss, &self.loss, |l| l.key().into());
        row(&mut out, SlotName::Nodes, &self.nodes, u64::to_string);
        row(&mut out, SlotName::Sharding, &self.sharding, |s| {
            s.key().into()
        });
        row(&mut out, SlotName::Offload, &self.offload, on_off);
        row(
            &mut out,
            SlotName::Framework,
            &self.framework,
            String::clone,
        );
        row(
            &mut out,
            SlotName::EvalBatch,
            &self.eval_batch,
            u64::to_string,
        );
        row(&mut out, SlotName::Resume, &self.resume, on_off);
        row(&mut out, SlotName::Loader, &self.loader, |l| {
            l.label().into()
        });
        row(&mut out, SlotName::Prequantized, &self.prequantized, on_off);
        row(&mut out, SlotName::Packed, &self.packed, on_off);
        row(&mut out, SlotName::Objective, &self.objective, |o| o.show());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_the_catalog_name_states_is_the_same_model() {
        let llama = ModelChoice::Catalog("Llama 3.1 70B".into());
        assert!(same_size(&llama, 70_000_000_000));
        assert!(!same_size(&llama, 8_000_000_000));
        let qwen = ModelChoice::Catalog("Qwen2.5 7B".into());
        assert!(same_size(&qwen, 7_000_000_000));
        // 8x7B names no 7B model.
        let mixtral = ModelChoice::Catalog("Mixtral 8x7B".into());
        assert!(!same_size(&mixtral, 7_000_000_000));
        assert!(!same_size(
            &ModelChoice::Params(70_000_000_000),
            70_000_000_000
        ));
    }
}
