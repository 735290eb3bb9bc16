//! One integration-test binary (fast links on a 2-core machine), one module
//! per behaviour a user sees.

mod conversations;
mod dialogue;
mod faults;
mod faults_restart;
mod follow_ups;
mod fuzz;
mod guard_attacks;
mod hardening;
mod ladder_results;
mod layering;
mod llm;
mod llm_server;
mod log_formats;
mod loose_turns;
mod no_spawn;
mod objective_ladder;
mod one_screen;
mod oom_out_of_reach;
mod oom_pool;
mod paraphrases;
mod pending_turns;
mod plan_cli;
mod properties;
mod pty;
mod real_pastes;
mod restated_yes;
mod run_context;
mod spark_memory;
mod stacked_pastes;
mod support;
mod thermal;
mod trainer_banner;
mod transcripts;
mod understanding;
mod validation;
