//! `headroom plan`: the headroom plan in one shot, as text or JSON.

use crate::calc::defaults::{Choices, complete};
use crate::calc::model_spec::{from_catalog, from_config, from_params};
use crate::calc::plan::make_plan;
use crate::calc::verdict::Verdict;
use crate::cli::args::PlanArgs;
use crate::extract::config_json::parse_config;
use crate::extract::free::parse_free;
use crate::extract::slots::find_model;
use crate::knowledge::Knowledge;
use crate::render::plan_json::plan_json;
use crate::render::plan_md::render_plan;
use crate::render::terminal::{Style, render};
use crate::reply::InputLine;

/// A problem with the flags, worded for the owner.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PlanError(pub String);

fn read_source(path: &std::path::Path) -> Result<String, PlanError> {
    crate::input::read_text(path, crate::input::MEMORY_PASTE).map_err(|e| {
        PlanError(format!(
            "--free {}: {e}",
            crate::render::terminal::sanitize(&path.display().to_string())
        ))
    })
}

/// The plan's text (or JSON) and its verdict, which sets the exit code.
pub fn run(args: &PlanArgs) -> Result<(String, Verdict), PlanError> {
    let k = Knowledge::embedded();
    let mut lines = Vec::new();
    let flag = |name: &'static str, value: String, origin: String| InputLine {
        name,
        value,
        origin,
    };
    let model = if let Some(path) = &args.config {
        let text = crate::input::read_text(path, crate::input::CONFIG_JSON).map_err(|e| {
            PlanError(format!(
                "--config {}: {e}",
                crate::render::terminal::sanitize(&path.display().to_string())
            ))
        })?;
        let arch = parse_config(&text)
            .map_err(|e| PlanError(format!("--config {}: {e}. {}", path.display(), e.hint())))?;
        from_config(arch, &path.display().to_string())
    } else if let Some(name) = &args.model {
        let (found, _) = find_model(name, k).ok_or_else(|| {
            PlanError(format!(
                "--model {name:?} is not in the catalog (knowledge/models.md). Give --params with its size, --config with its config.json, or one of: {}",
                k.models.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join(", ")
            ))
        })?;
        from_catalog(k.model(&found).expect("find_model returns catalog names"))
    } else {
        let params = args
            .params
            .expect("clap requires one of --params, --model, --config");
        from_params(params, k)
    };
    lines.push(flag(
        "model",
        format!(
            "{} ({} params)",
            model.display,
            crate::calc::units::grouped(model.params)
        ),
        if args.config.is_some() {
            "--config".into()
        } else if args.model.is_some() {
            "--model".into()
        } else {
            "--params".into()
        },
    ));
    lines.push(flag(
        "method",
        args.method.label().into(),
        "--method".into(),
    ));
    if let Some(d) = args.dtype {
        lines.push(flag("dtype", d.key().into(), "--dtype".into()));
    }
    if let Some(b) = args.batch {
        lines.push(flag("batch", b.to_string(), "--batch".into()));
    }
    if let Some(p) = args.pack {
        lines.push(flag("packing length", p.to_string(), "--pack".into()));
    }
    if let Some(o) = args.optimizer {
        lines.push(flag("optimizer", o.key().into(), "--optimizer".into()));
    }
    if let Some(o) = &args.objective {
        lines.push(flag("objective", o.clone(), "--objective".into()));
    }
    if let Some(p) = args.precision {
        lines.push(flag("precision", p.label().into(), "--precision".into()));
    }
    if let Some(a) = args.attn {
        lines.push(flag("attention", a.key().into(), "--attn".into()));
    }
    if let Some(n) = args.nodes {
        lines.push(flag("Sparks", n.to_string(), "--nodes".into()));
    }
    let preset = match &args.framework {
        None => None,
        Some(name) => Some(
            crate::calc::runtime::find(name, k)
                .map(|key| crate::calc::runtime::preset(&key, k).clone())
                .ok_or_else(|| {
                    PlanError(format!(
                        "--framework {name:?} is not a stack headroom knows: {}",
                        k.frameworks
                            .iter()
                            .map(|p| p.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?,
        ),
    };
    let choices = Choices {
        preset,
        eval_batch: args.eval_batch,
        resumes: args.resume.then_some(true),
        loader: args.loader,
        prequantized: args.prequantized.then_some(true),
        packed: args.packed.then_some(true),
        dtype: args.dtype,
        optimizer: args.optimizer,
        batch: args.batch,
        pack: args.pack,
        grad_checkpointing: args.grad_checkpointing,
        lora_rank: args.lora_rank,
        lora_targets: args.lora_targets.clone(),
        lora_dropout: args.lora_dropout,
        precision: args.precision,
        attention: args.attn,
        loss: args.loss.or(args.fused_loss.map(|on| {
            if on {
                crate::calc::setup::Loss::Fused
            } else {
                crate::calc::setup::Loss::Upcast
            }
        })),
        nodes: args.nodes,
        sharding: match args.sharding.as_deref() {
            None => None,
            Some(s) if crate::calc::setup::is_tensor_parallel(s) => {
                return Err(PlanError(format!(
                    "--sharding {s}: {}",
                    crate::calc::setup::TENSOR_PARALLEL_REFUSAL
                )));
            }
            Some(s) => Some(
                crate::calc::setup::Sharding::parse(s)
                    .ok_or_else(|| PlanError(format!("--sharding {s}: expected ddp or fsdp")))?,
            ),
        },
        objective: objective_of(args)?,
    };
    let free = match &args.free {
        None => None,
        Some(path) => {
            let text = read_source(path)?;
            let reading = parse_free(&text)
                .map_err(|e| PlanError(format!("--free {}: {e}. {}", path.display(), e.hint())))?;
            lines.push(flag(
                "free output",
                format!(
                    "`{}` with available {}",
                    reading.unit.flag(),
                    reading.available_text
                ),
                format!("--free {}", path.display()),
            ));
            Some(reading)
        }
    };
    let (input, assumptions) = complete(model, args.method, &choices);
    let mut plan = make_plan(input, free.as_ref(), assumptions, k);
    if let Some(what) = args.solve {
        plan.solution = Some(crate::calc::solve::solve(
            &plan.input,
            what,
            &plan.budget,
            k,
        ));
    }
    let verdict = plan.judgement.verdict;
    let text = if args.json {
        serde_json::to_string_pretty(&plan_json(&plan)).expect("plan JSON serializes")
    } else {
        render(&render_plan(&plan, &lines), Style::detect())
    };
    Ok((text, verdict))
}

/// The objective from its flags; an RL run's sequence is its prompt and
/// completion, so `--pack` is theirs to set.
fn objective_of(
    args: &crate::cli::args::PlanArgs,
) -> Result<Option<crate::calc::objective::Objective>, PlanError> {
    use crate::calc::objective::{ObjectiveSpec, Reference};
    let Some(kind) = args.objective.as_deref() else {
        return Ok(None);
    };
    let reference = match args.reference.as_deref() {
        None => None,
        Some(s) => Some(Reference::parse(s).ok_or_else(|| {
            PlanError(format!(
                "--reference {s}: expected model, precomputed or none"
            ))
        })?),
    };
    let spec = ObjectiveSpec {
        kind: Some(kind.to_string()),
        reference,
        generations: args.generations,
        prompt: args.prompt_length,
        completion: args.completion_length,
        chosen: args.chosen_length,
        rejected: args.rejected_length,
        beta: args.beta,
        vllm: args.vllm.clone(),
        fraction: args.vllm_fraction,
        shared: args.shared_weights.then_some(true),
    };
    spec.build()
        .map(Some)
        .map_err(|e| PlanError(format!("--objective: {e}")))
}
