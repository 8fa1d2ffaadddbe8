//! Per-client request budgets (token buckets, per process). A client is its seat token or its
//! player token when it sends one this process knows to be real ([`crate::known_tokens`]; a
//! player token has a budget of its own, larger: it acts in many games), else its address (see
//! [`super::client_address`]); creating games, joining seats, creating players and seeking draw
//! from a separate, tighter budget per address (they write rows that outlive the request).
//! Every response carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (the
//! IETF draft's fields; `Reset` is the seconds until the next request unit is back, which on a
//! 429 is its `Retry-After`); a request over budget is a 429 `rate_limited` with
//! `Retry-After`, and is not processed.
//!
//! Written here rather than with `governor`: its keyed limiter reports the remaining burst but
//! not when the next unit comes back, which `RateLimit-Reset` needs to be exact.
//!
//! What a client controls cannot buy it a budget: the limiter reads the path the router
//! matches (so `/v1/%67ames` is `/v1/games`), the credentials through the one parser every
//! handler uses ([`crate::extract::parse_bearer`]), and gives a bucket of its own only to a
//! token that exists. An IPv6 client is its /64 network, the block one subscriber gets.

use std::collections::HashMap;
use std::net::IpAddr;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ResourceDef, ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{web, ResponseError};

use super::client_address::ClientAddresses;
use crate::error::ApiError;
use crate::extract::{parse_bearer, PLAYER_TOKEN_PREFIX};
use crate::known_tokens::KnownTokens;

/// A budget: up to `burst` requests at once, refilled at `per_second`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub burst: u32,
    pub per_second: f64,
}

impl FromStr for Budget {
    type Err = String;

    /// `BURST/PER_SECOND`, e.g. `600/60`.
    fn from_str(s: &str) -> Result<Budget, String> {
        let (burst, rate) = s
            .split_once('/')
            .ok_or_else(|| format!("expected BURST/PER_SECOND, got {s:?}"))?;
        let burst: u32 = burst.trim().parse().map_err(|e| format!("burst: {e}"))?;
        let per_second: f64 = rate.trim().parse().map_err(|e| format!("rate: {e}"))?;
        if burst == 0 || per_second.is_nan() || per_second <= 0.0 {
            return Err("burst and rate must be positive".into());
        }
        Ok(Budget { burst, per_second })
    }
}

/// The budgets of each kind of client.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Per seat token.
    pub token: Budget,
    /// Per player token.
    pub player: Budget,
    /// Per address, for requests without a token.
    pub address: Budget,
    /// Per address, for creating games and joining seats.
    pub lobby: Budget,
}

/// Which budget a request draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Token,
    Player,
    Address,
    Lobby,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// What a request drew from its budget.
struct Verdict {
    allowed: bool,
    limit: u32,
    remaining: u32,
    /// Seconds until the next request unit is back in the budget (0 when it is full): on a
    /// 429 exactly `Retry-After`, so a client that sees `RateLimit-Remaining: 0` waits this
    /// long, whichever header it reads.
    reset: u64,
    /// Seconds until one request is allowed again.
    retry_after: u64,
}

/// The process's buckets. Full buckets are forgotten from time to time, so the map holds
/// only clients seen recently.
pub struct RateLimiter {
    limits: Limits,
    buckets: Mutex<HashMap<(Class, u64), Bucket>>,
    known: Arc<KnownTokens>,
    addresses: ClientAddresses,
    lobby: [ResourceDef; 4],
}

/// Above this many buckets, full ones are dropped at the next request.
const SWEEP_ABOVE: usize = 50_000;

impl RateLimiter {
    /// A limiter with `limits` that knows the tokens in `known` and reads client addresses as
    /// `addresses` says.
    pub fn new(limits: Limits, known: Arc<KnownTokens>, addresses: ClientAddresses) -> RateLimiter {
        RateLimiter {
            limits,
            buckets: Mutex::new(HashMap::new()),
            known,
            addresses,
            lobby: [
                ResourceDef::new("/v1/games"),
                ResourceDef::new("/v1/games/{id}/seats"),
                ResourceDef::new("/v1/players"),
                ResourceDef::new("/v1/seeks"),
            ],
        }
    }

    fn budget(&self, class: Class) -> Budget {
        match class {
            Class::Token => self.limits.token,
            Class::Player => self.limits.player,
            Class::Address => self.limits.address,
            Class::Lobby => self.limits.lobby,
        }
    }

    fn draw(&self, class: Class, key: u64, now: Instant) -> Verdict {
        let budget = self.budget(class);
        let cap = f64::from(budget.burst);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > SWEEP_ABOVE {
            buckets.retain(|(c, _), b| {
                let rate = self.budget(*c).per_second;
                b.tokens + now.duration_since(b.at).as_secs_f64() * rate
                    < f64::from(self.budget(*c).burst)
            });
        }
        let bucket = buckets.entry((class, key)).or_insert(Bucket {
            tokens: cap,
            at: now,
        });
        let elapsed = now.duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * budget.per_second).min(cap);
        bucket.at = now;
        let allowed = bucket.tokens >= 1.0;
        if allowed {
            bucket.tokens -= 1.0;
        }
        let secs = |missing: f64| (missing.max(0.0) / budget.per_second).ceil() as u64;
        // What the next whole unit still lacks (none when the bucket is full).
        let next_unit = if bucket.tokens >= cap {
            0.0
        } else {
            bucket.tokens.floor() + 1.0 - bucket.tokens
        };
        let retry_after = secs(1.0 - bucket.tokens).max(1);
        Verdict {
            allowed,
            limit: budget.burst,
            remaining: bucket.tokens.floor() as u32,
            reset: if allowed {
                secs(next_unit)
            } else {
                retry_after
            },
            retry_after,
        }
    }
}

/// The key of an address's budget: the address, or an IPv6 address's /64 network.
fn address_key(ip: IpAddr) -> u64 {
    match ip {
        IpAddr::V4(v4) => u64::from(u32::from(v4)),
        IpAddr::V6(v6) => (u128::from(v6) >> 64) as u64 ^ (1 << 63),
    }
}

impl RateLimiter {
    /// Who is asking (see the module documentation): a known seat or player token, else the
    /// client's address; the lobby's writes always by address.
    fn client(&self, req: &ServiceRequest) -> (Class, u64) {
        // The path as the router matches it (percent-encoded letters decoded), never the raw.
        let path = req.match_info().as_str();
        let peer = req
            .peer_addr()
            .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
        let address = address_key(self.addresses.of(peer, req.headers()));
        if req.method() == Method::POST && self.lobby.iter().any(|r| r.is_match(path)) {
            return (Class::Lobby, address);
        }
        let token = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|value| parse_bearer(value.as_bytes()).ok());
        let known = token
            .as_ref()
            .and_then(|token| Some((token, self.known.known(token.as_str())?)));
        match known {
            Some((token, key)) if token.as_str().starts_with(PLAYER_TOKEN_PREFIX) => {
                (Class::Player, key)
            }
            Some((_, key)) => (Class::Token, key),
            None => (Class::Address, address),
        }
    }
}

fn set_headers(headers: &mut HeaderMap, verdict: &Verdict) {
    for (name, value) in [
        ("ratelimit-limit", verdict.limit.into()),
        ("ratelimit-remaining", u64::from(verdict.remaining)),
        ("ratelimit-reset", verdict.reset),
    ] {
        headers.insert(HeaderName::from_static(name), HeaderValue::from(value));
    }
}

/// The middleware (see the module documentation). Without a [`RateLimiter`] in the app data
/// (limits switched off) every request passes untouched.
///
/// # Errors
/// Whatever the inner service returns.
pub async fn limit(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, BoxBody>>, actix_web::Error> {
    let Some(limiter) = req.app_data::<web::Data<RateLimiter>>().cloned() else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let (class, key) = limiter.client(&req);
    let verdict = limiter.draw(class, key, Instant::now());
    if !verdict.allowed {
        let mut res = ApiError::rate_limited(verdict.retry_after).error_response();
        set_headers(res.headers_mut(), &verdict);
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(verdict.retry_after));
        return Ok(req.into_response(res).map_into_right_body());
    }
    let mut res = next.call(req).await?;
    set_headers(res.headers_mut(), &verdict);
    Ok(res.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limiter() -> RateLimiter {
        let b = |burst, per_second| Budget { burst, per_second };
        let limits = Limits {
            token: b(3, 1.0),
            player: b(5, 1.0),
            address: b(10, 1.0),
            lobby: b(1, 0.5),
        };
        RateLimiter::new(
            limits,
            Arc::new(KnownTokens::new(10)),
            ClientAddresses::default(),
        )
    }

    #[test]
    fn an_ipv6_client_is_its_64_network_and_never_an_ipv4_one() {
        let key = |s: &str| address_key(s.parse().unwrap());
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff::9"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_ne!(key("0.0.0.1"), key("::1"));
    }

    #[test]
    fn a_budget_allows_its_burst_then_refills_at_its_rate() {
        let l = limiter();
        let t0 = Instant::now();
        let remaining: Vec<_> = (0..4).map(|_| l.draw(Class::Token, 1, t0)).collect();
        assert_eq!(
            remaining.iter().map(|v| v.allowed).collect::<Vec<_>>(),
            [true, true, true, false]
        );
        assert_eq!(remaining[0].remaining, 2);
        assert_eq!(remaining[3].retry_after, 1);
        // Issue 39: a 429's RateLimit-Reset agrees with its Retry-After (it said 3, the time
        // until the whole burst was back).
        assert_eq!(remaining[3].reset, remaining[3].retry_after);
        assert_eq!(remaining[0].reset, 1, "one unit spent, back in a second");
        // Another client has its own bucket.
        assert!(l.draw(Class::Token, 2, t0).allowed);
        // One second later one request fits again.
        assert!(l.draw(Class::Token, 1, t0 + Duration::from_secs(1)).allowed);
        // Lobby: one per two seconds.
        assert!(l.draw(Class::Lobby, 1, t0).allowed);
        let v = l.draw(Class::Lobby, 1, t0);
        assert!(!v.allowed);
        assert_eq!((v.retry_after, v.reset), (2, 2));
        // Half a unit back: the next one in one more second.
        let v = l.draw(Class::Lobby, 1, t0 + Duration::from_secs(1));
        assert!(!v.allowed);
        assert_eq!((v.retry_after, v.reset), (1, 1));
        // Another budget, one unit spent: back within a second.
        let v = l.draw(Class::Address, 9, t0);
        assert!(v.allowed && v.reset == 1 && v.remaining == 9);
    }

    #[test]
    fn budgets_parse_from_burst_and_rate() {
        assert_eq!(
            "600/60".parse::<Budget>(),
            Ok(Budget {
                burst: 600,
                per_second: 60.0
            })
        );
        assert!("0/1".parse::<Budget>().is_err());
        assert!("5".parse::<Budget>().is_err());
    }
}
