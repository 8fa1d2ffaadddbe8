//! Connection strings that notice a lost server in bounded time.
//!
//! A PostgreSQL server that crashes on this machine closes its sockets at once, and every
//! statement on them fails. A server *machine* that vanishes (power, network, a failover that
//! fences the old primary) closes nothing: without keepalives a connection waits for an
//! answer for as long as the kernel retransmits, about 15 minutes, and a long poll, stream or
//! bot worker behind it with it. libpq has the settings for this; [`with_failover_defaults`]
//! adds them to a connection string that does not set them itself:
//!
//! - `connect_timeout=3`: an unreachable host of a multi-host URL is given up after 3 s
//!   (libpq then tries the next one);
//! - `keepalives_idle=10`, `keepalives_interval=3`, `keepalives_count=3`: an idle connection
//!   (the LISTEN connection, pooled connections) to a vanished machine is closed within
//!   about 20 s;
//! - `tcp_user_timeout=10000`: a statement sent to a vanished machine fails after 10 s
//!   instead of minutes.
//!
//! None of them changes anything for a healthy server, for Unix sockets (the embedded
//! cluster), or for a setting the operator wrote into the URL.
//!
//! ```
//! let url = db::conninfo::with_failover_defaults(
//!     "postgresql://app@db1:5432,db2:5432/games?target_session_attrs=read-write",
//! );
//! assert!(url.contains("target_session_attrs=read-write&connect_timeout=3"));
//! assert!(url.ends_with("tcp_user_timeout=10000"));
//! ```

/// The settings added when absent, in the order they are appended.
pub const FAILOVER_DEFAULTS: [(&str, &str); 5] = [
    ("connect_timeout", "3"),
    ("keepalives_idle", "10"),
    ("keepalives_interval", "3"),
    ("keepalives_count", "3"),
    ("tcp_user_timeout", "10000"),
];

/// `conninfo` (a `postgres://`/`postgresql://` URL or a `key=value` string) with every
/// setting of [`FAILOVER_DEFAULTS`] that it does not set itself.
pub fn with_failover_defaults(conninfo: &str) -> String {
    let is_url = conninfo.starts_with("postgres://") || conninfo.starts_with("postgresql://");
    let (set, separator): (Vec<&str>, _) = if is_url {
        let query = conninfo.split_once('?').map_or("", |(_, q)| q);
        let keys = query
            .split('&')
            .filter_map(|pair| pair.split('=').next())
            .collect();
        (keys, if conninfo.contains('?') { "&" } else { "?" })
    } else {
        let keys = conninfo
            .split_whitespace()
            .filter_map(|word| word.split_once('=').map(|(key, _)| key))
            .collect();
        (keys, " ")
    };
    let mut out = conninfo.trim_end().to_string();
    let mut separator = separator;
    for (key, value) in FAILOVER_DEFAULTS {
        if set.contains(&key) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(separator);
        }
        out.push_str(key);
        out.push('=');
        out.push_str(value);
        if is_url {
            separator = "&";
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::with_failover_defaults;

    #[test]
    fn a_url_without_a_query_gets_one_with_every_default() {
        assert_eq!(
            with_failover_defaults("postgres://u@h:1,h:2/db"),
            "postgres://u@h:1,h:2/db?connect_timeout=3&keepalives_idle=10\
             &keepalives_interval=3&keepalives_count=3&tcp_user_timeout=10000"
        );
    }

    #[test]
    fn settings_the_operator_wrote_are_kept_and_not_repeated() {
        let url = with_failover_defaults(
            "postgresql://h/db?connect_timeout=9&target_session_attrs=read-write&tcp_user_timeout=0",
        );
        assert!(url.starts_with(
            "postgresql://h/db?connect_timeout=9&target_session_attrs=read-write&tcp_user_timeout=0&"
        ));
        assert_eq!(url.matches("connect_timeout").count(), 1, "{url}");
        assert_eq!(url.matches("tcp_user_timeout").count(), 1, "{url}");
        assert!(url.contains("&keepalives_idle=10"), "{url}");
    }

    #[test]
    fn a_keyword_value_string_gets_keyword_value_defaults() {
        let conninfo = with_failover_defaults("host=db1,db2 dbname=games keepalives_idle=30");
        assert_eq!(
            conninfo,
            "host=db1,db2 dbname=games keepalives_idle=30 connect_timeout=3 \
             keepalives_interval=3 keepalives_count=3 tcp_user_timeout=10000"
        );
    }
}
