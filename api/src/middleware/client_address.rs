//! The client's address, for per-address budgets: the peer of the connection, or, when the
//! peer is one of the operator's reverse proxies (`--trusted-proxies`), the address that proxy
//! forwarded. Behind a proxy every client's connection comes from the proxy, so without this
//! all anonymous clients would share one budget; and a forwarding header from anyone else is
//! a client's claim about itself, so it is ignored.
//!
//! Only the one header the operator names is read (`--client-address-header`,
//! `x-forwarded-for` by default, or `forwarded`): a proxy that writes one of them usually
//! passes the other through from the client untouched (nginx's `proxy_add_x_forwarded_for`
//! leaves a client's `Forwarded` alone), so reading both would let every client choose its
//! address. Each proxy appends the address it received the request from; the client is the
//! rightmost address in the chain that is not a trusted proxy: everything left of it was
//! written by the client itself and could be anything. Each hop is parsed by the
//! `forwarded-header-value` crate (RFC 7239 elements, and the addresses of
//! `X-Forwarded-For`), one hop at a time, so a garbage hop a client wrote on the left does not
//! hide the hops the proxies wrote on the right.

use std::net::IpAddr;
use std::str::FromStr;

use actix_web::http::header::HeaderMap;
use forwarded_header_value::{ForwardedStanza, Identifier};
use ipnet::IpNet;

/// The forwarding header the trusted proxies write (`--client-address-header`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ForwardingHeader {
    /// `X-Forwarded-For: client, proxy1` (nginx's `$proxy_add_x_forwarded_for`, HAProxy's
    /// `option forwardfor`).
    #[default]
    XForwardedFor,
    /// `Forwarded: for=client, for=proxy1` (RFC 7239).
    Forwarded,
}

impl ForwardingHeader {
    fn name(self) -> &'static str {
        match self {
            ForwardingHeader::XForwardedFor => "x-forwarded-for",
            ForwardingHeader::Forwarded => "forwarded",
        }
    }
}

/// Where a request's client address comes from: the proxies to believe and the header they
/// write.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientAddresses {
    pub proxies: TrustedProxies,
    pub header: ForwardingHeader,
}

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

impl ClientAddresses {
    /// The client's address for a request from `peer` with `headers` (see the module
    /// documentation).
    pub fn of(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.proxies.trusts(peer) {
            return peer;
        }
        let mut client = peer;
        for hop in self.chain(headers).iter().rev() {
            match hop {
                Some(ip) if self.proxies.trusts(*ip) => client = *ip,
                Some(ip) => return *ip,
                // An unknown or hidden hop: the last proxy that named it is as far as we can
                // see.
                None => return client,
            }
        }
        client
    }

    /// The forwarded addresses in the named header, first hop first; `None` for a hop that
    /// names no address (`unknown`, an obfuscated identifier, garbage).
    fn chain(&self, headers: &HeaderMap) -> Vec<Option<IpAddr>> {
        let hops = headers
            .get_all(self.header.name())
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|v| !v.is_empty());
        let address = |hop: &str| match self.header {
            ForwardingHeader::Forwarded => hop
                .parse::<ForwardedStanza>()
                .ok()
                .and_then(|stanza| stanza.forwarded_for_ip()),
            ForwardingHeader::XForwardedFor => hop
                .parse::<Identifier>()
                .ok()
                .and_then(|identifier| identifier.ip()),
        };
        hops.map(|hop| address(hop).map(canonical)).collect()
    }
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

    fn behind(proxies: &str, header: ForwardingHeader) -> ClientAddresses {
        ClientAddresses {
            proxies: proxies.parse().unwrap(),
            header,
        }
    }

    #[test]
    fn forwarding_headers_count_only_from_trusted_proxies() {
        let addresses = behind("10.0.0.0/8, ::1", ForwardingHeader::XForwardedFor);
        let h = headers(&[("x-forwarded-for", "198.51.100.1, 10.1.1.1")]);
        assert_eq!(addresses.of(ip("10.0.0.2"), &h), ip("198.51.100.1"));
        assert_eq!(addresses.of(ip("::1"), &h), ip("198.51.100.1"));
        assert_eq!(addresses.of(ip("192.0.2.9"), &h), ip("192.0.2.9"));
        let none = ClientAddresses::default();
        assert_eq!(none.of(ip("10.0.0.2"), &h), ip("10.0.0.2"));
    }

    #[test]
    fn the_client_is_the_rightmost_address_no_trusted_proxy_added() {
        let proxy = ip("10.0.0.2");
        let xff = behind("10.0.0.0/8", ForwardingHeader::XForwardedFor);
        let at = |pairs| xff.of(proxy, &headers(pairs));
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
        assert_eq!(
            at(&[("x-forwarded-for", "garbage, 198.51.100.1:4711")]),
            ip("198.51.100.1")
        );
        // Nothing forwarded, or a hidden hop: the nearest proxy that is known.
        assert_eq!(at(&[]), proxy);
        assert_eq!(at(&[("x-forwarded-for", "garbage")]), proxy);
        // Only proxies in the chain: the first of them.
        assert_eq!(
            at(&[("x-forwarded-for", "10.0.0.9, 10.0.0.8")]),
            ip("10.0.0.9")
        );

        let rfc = behind("10.0.0.0/8", ForwardingHeader::Forwarded);
        let at = |pairs| rfc.of(proxy, &headers(pairs));
        assert_eq!(
            at(&[("forwarded", "for=192.0.2.60;proto=http;by=203.0.113.43")]),
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
        assert_eq!(
            at(&[("forwarded", "for=unknown, for=10.0.0.7")]),
            ip("10.0.0.7")
        );
        assert_eq!(
            at(&[("forwarded", "for=_hidden, for=198.51.100.3")]),
            ip("198.51.100.3")
        );
    }

    /// Issue 39: a proxy that writes only `X-Forwarded-For` passes a client's own `Forwarded`
    /// through (nginx's usual set-up); the server reads only the header the operator named, so
    /// the client cannot choose its address with the other one.
    #[test]
    fn only_the_named_header_is_read() {
        let proxy = ip("127.0.0.1");
        let h = headers(&[
            ("forwarded", "for=203.0.113.99"),
            ("x-forwarded-for", "198.51.100.7"),
        ]);
        let xff = behind("127.0.0.1", ForwardingHeader::XForwardedFor);
        assert_eq!(xff.of(proxy, &h), ip("198.51.100.7"));
        let only_forwarded = headers(&[("forwarded", "for=203.0.113.99")]);
        assert_eq!(xff.of(proxy, &only_forwarded), proxy);
        let rfc = behind("127.0.0.1", ForwardingHeader::Forwarded);
        assert_eq!(rfc.of(proxy, &h), ip("203.0.113.99"));
        let only_xff = headers(&[("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(rfc.of(proxy, &only_xff), proxy);
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
