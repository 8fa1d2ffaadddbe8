//! The client's address, for per-address budgets: the peer of the connection, or, when the
//! peer is one of the operator's reverse proxies (`--trusted-proxies`), the address that proxy
//! forwarded. Behind a proxy every client's connection comes from the proxy, so without this
//! all anonymous clients would share one budget; and a forwarding header from anyone else is
//! a client's claim about itself, so it is ignored.
//!
//! The forwarded chain is read from `Forwarded` (RFC 7239) when present, else from
//! `X-Forwarded-For`; each proxy appends the address it received the request from. The client
//! is the rightmost address in the chain that is not a trusted proxy: everything left of it
//! was written by the client itself and could be anything.

use std::net::IpAddr;
use std::str::FromStr;

use actix_web::http::header::HeaderMap;
use ipnet::IpNet;

/// The reverse proxies whose forwarding headers are believed: CIDR blocks or single
/// addresses, comma-separated (`10.0.0.0/8, ::1`); empty for none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl FromStr for TrustedProxies {
    type Err = String;

    fn from_str(s: &str) -> Result<TrustedProxies, String> {
        s.split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| {
                part.parse::<IpNet>()
                    .or_else(|_| part.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("{part:?} is neither an address nor a CIDR block"))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }
}

impl TrustedProxies {
    /// Whether `ip` is one of the proxies.
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// An IPv4 address written as IPv6 (`::ffff:192.0.2.1`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client's address for a request from `peer` with `headers` (see the module
/// documentation).
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &TrustedProxies) -> IpAddr {
    let peer = canonical(peer);
    if !trusted.trusts(peer) {
        return peer;
    }
    let chain = forwarded_chain(headers);
    let mut client = peer;
    for hop in chain.iter().rev() {
        match hop {
            Some(ip) if trusted.trusts(*ip) => client = *ip,
            Some(ip) => return *ip,
            // An unknown or hidden hop: the last proxy that named it is as far as we can see.
            None => return client,
        }
    }
    client
}

/// The forwarded addresses, first hop first; `None` for a hop that names no address
/// (`unknown`, an obfuscated identifier, garbage).
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let values = |name: &str| {
        headers
            .get_all(name)
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let forwarded = values("forwarded");
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .map(|element| forwarded_for(element))
            .collect();
    }
    values("x-forwarded-for")
        .iter()
        .map(|hop| node_address(hop))
        .collect()
}

/// The `for=` address of one `Forwarded` element (`for=192.0.2.1;proto=https`).
fn forwarded_for(element: &str) -> Option<IpAddr> {
    element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("for")
            .then(|| node_address(value.trim().trim_matches('"')))
            .flatten()
    })
}

/// An address with an optional port: `192.0.2.1`, `192.0.2.1:80`, `[2001:db8::1]:80`,
/// `2001:db8::1`.
fn node_address(node: &str) -> Option<IpAddr> {
    if let Some(rest) = node.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok().map(canonical);
    }
    if let Ok(ip) = node.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    let (host, port) = node.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::{HeaderName, HeaderValue};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_static(name),
                HeaderValue::from_static(value),
            );
        }
        map
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn forwarding_headers_count_only_from_trusted_proxies() {
        let trusted: TrustedProxies = "10.0.0.0/8, ::1".parse().unwrap();
        let h = headers(&[("x-forwarded-for", "198.51.100.1, 10.1.1.1")]);
        assert_eq!(
            client_address(ip("10.0.0.2"), &h, &trusted),
            ip("198.51.100.1")
        );
        assert_eq!(client_address(ip("::1"), &h, &trusted), ip("198.51.100.1"));
        assert_eq!(
            client_address(ip("192.0.2.9"), &h, &trusted),
            ip("192.0.2.9")
        );
        let none = TrustedProxies::default();
        assert_eq!(client_address(ip("10.0.0.2"), &h, &none), ip("10.0.0.2"));
    }

    #[test]
    fn the_client_is_the_rightmost_address_no_trusted_proxy_added() {
        let trusted: TrustedProxies = "10.0.0.0/8".parse().unwrap();
        let proxy = ip("10.0.0.2");
        let at = |pairs| client_address(proxy, &headers(pairs), &trusted);
        // The client wrote the first entry itself: it cannot choose its address.
        assert_eq!(
            at(&[("x-forwarded-for", "1.2.3.4, 198.51.100.1")]),
            ip("198.51.100.1")
        );
        assert_eq!(
            at(&[
                ("x-forwarded-for", "1.2.3.4"),
                ("x-forwarded-for", "198.51.100.1")
            ]),
            ip("198.51.100.1")
        );
        // RFC 7239, which wins over X-Forwarded-For.
        assert_eq!(
            at(&[
                ("forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43"),
                ("x-forwarded-for", "198.51.100.1")
            ]),
            ip("192.0.2.60")
        );
        assert_eq!(
            at(&[(
                "forwarded",
                "for=\"[2001:db8:cafe::17]:4711\", for=10.0.0.3"
            )]),
            ip("2001:db8:cafe::17")
        );
        assert_eq!(
            at(&[("forwarded", "For=\"192.0.2.1:8080\"")]),
            ip("192.0.2.1")
        );
        // Nothing forwarded, or a hidden hop: the nearest proxy that is known.
        assert_eq!(at(&[]), proxy);
        assert_eq!(
            at(&[("forwarded", "for=unknown, for=10.0.0.7")]),
            ip("10.0.0.7")
        );
        assert_eq!(at(&[("x-forwarded-for", "garbage")]), proxy);
        // Only proxies in the chain: the first of them.
        assert_eq!(
            at(&[("x-forwarded-for", "10.0.0.9, 10.0.0.8")]),
            ip("10.0.0.9")
        );
    }

    #[test]
    fn trusted_proxies_parse_from_blocks_and_addresses() {
        let t: TrustedProxies = " 127.0.0.1 , 10.0.0.0/8,fd00::/8 ".parse().unwrap();
        assert!(t.trusts(ip("127.0.0.1")) && t.trusts(ip("10.9.9.9")) && t.trusts(ip("fd00::5")));
        assert!(t.trusts(ip("::ffff:127.0.0.1")));
        assert!(!t.trusts(ip("127.0.0.2")));
        assert!("".parse::<TrustedProxies>().unwrap().is_empty());
        assert!("10.0.0.0/33".parse::<TrustedProxies>().is_err());
        assert!("proxy.local".parse::<TrustedProxies>().is_err());
    }
}
