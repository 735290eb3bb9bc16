//! The API key for an OpenAI-compatible server: kept in the OS keyring
//! (Secret Service on Linux), never in transcripts, config files or logs.
//! On a headless box with no keyring, say so and take `HEADROOM_API_KEY`.

use keyring_core::{Entry, Error};

const SERVICE: &str = "headroom";
const USER: &str = "llm-api-key";
pub const ENV_KEY: &str = "HEADROOM_API_KEY";

/// The message for a box without a usable keyring.
pub fn no_backend(detail: &str) -> String {
    format!(
        "No OS keyring is available here ({detail}). On a headless box that is normal: set {ENV_KEY} in the environment of the shell that runs headroom instead; headroom never writes the key to a file."
    )
}

/// Make sure a default credential store is set: the Secret Service one,
/// unless a test installed the mock first.
fn store() -> Result<(), String> {
    if keyring_core::get_default_store().is_some() {
        return Ok(());
    }
    match zbus_secret_service_keyring_store::Store::new() {
        Ok(s) => {
            keyring_core::set_default_store(s);
            Ok(())
        }
        Err(e) => Err(no_backend(&e.to_string())),
    }
}

fn entry() -> Result<Entry, String> {
    store()?;
    Entry::new(SERVICE, USER).map_err(|e| no_backend(&e.to_string()))
}

pub fn set(key: &str) -> Result<(), String> {
    entry()?
        .set_password(key)
        .map_err(|e| no_backend(&e.to_string()))
}

pub fn clear() -> Result<bool, String> {
    match entry()?.delete_credential() {
        Ok(()) => Ok(true),
        Err(Error::NoEntry) => Ok(false),
        Err(e) => Err(no_backend(&e.to_string())),
    }
}

/// The key to send: `HEADROOM_API_KEY` wins (an explicit override), then
/// the keyring. A missing keyring is not an error here: local servers need
/// no key.
pub fn get() -> Option<String> {
    if let Some(k) = std::env::var(ENV_KEY).ok().filter(|k| !k.is_empty()) {
        return Some(k);
    }
    entry().ok()?.get_password().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole keyring path against keyring-core's mock store.
    #[test]
    fn set_get_clear_through_the_mock_store() {
        keyring_core::set_default_store(keyring_core::mock::Store::new().unwrap());
        // SAFETY: tests in this module do not read HEADROOM_API_KEY concurrently.
        unsafe { std::env::remove_var(ENV_KEY) };
        assert_eq!(get(), None);
        set("sk-test-123").unwrap();
        assert_eq!(get().as_deref(), Some("sk-test-123"));
        assert_eq!(clear(), Ok(true));
        assert_eq!(get(), None);
        assert_eq!(clear(), Ok(false));
    }

    #[test]
    fn the_no_backend_message_names_the_variable() {
        let m = no_backend("org.freedesktop.DBus.Error.ServiceUnknown");
        assert!(m.contains("HEADROOM_API_KEY"));
        assert!(m.contains("No OS keyring"));
    }
}
