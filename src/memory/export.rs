//! `/export`: one session of the transcript as a markdown document.

use crate::dialogue::session::when;
use crate::memory::transcript::Event;
use std::fmt::Write;

pub fn session_markdown(events: &[Event], session: &str, dir: &std::path::Path) -> String {
    let mut md = format!("# headroom session {session}\n");
    for e in events.iter().filter(|e| e.session() == session) {
        match e {
            Event::Owner {
                at, text, paste, ..
            } => {
                let text = crate::memory::transcript::owner_text(dir, text, paste.as_deref())
                    .unwrap_or_else(|| "(a paste that could not be read back)".into());
                let _ = write!(md, "\n## You, {}\n\n", when(*at));
                if text.contains('\n') {
                    let _ = writeln!(md, "````text\n{text}\n````");
                } else {
                    let _ = writeln!(md, "{text}");
                }
            }
            Event::Reply { at, text, .. } => {
                let _ = write!(md, "\n## headroom, {}\n\n{text}\n", when(*at));
            }
            Event::Forget { at, slot, .. } => {
                let _ = write!(md, "\n_{}: forgot {slot}_\n", when(*at));
            }
            Event::Cancelled { at, .. } => {
                let _ = write!(md, "\n_{}: answer cancelled with Ctrl-C_\n", when(*at));
            }
            Event::SessionStart { .. } => {}
        }
    }
    md
}
