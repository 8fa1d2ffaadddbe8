//! Per-client request budgets (token buckets, per process). A client is its player token or
//! its seat token when it sends one (a player token has a budget of its own, larger: it acts
//! in many games), else its address; creating games, joining seats, creating players and
//! seeking draw from a separate, tighter budget per address (they write rows that outlive the
//! request). Every response carries
//! `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (the IETF draft's fields);
//! a request over budget is a 429 `rate_limited` with `Retry-After`, and is not processed.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::net::IpAddr;
use std::str::FromStr;
use std::sync::Mutex;
use std::time::Instant;

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::{web, ResponseError};

use crate::error::ApiError;

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
    /// Seconds until the budget is full again.
    reset: u64,
    /// Seconds until one request is allowed again.
    retry_after: u64,
}

/// The process's buckets. Full buckets are forgotten from time to time, so the map holds
/// only clients seen recently.
pub struct RateLimiter {
    limits: Limits,
    buckets: Mutex<HashMap<(Class, u64), Bucket>>,
}

/// Above this many buckets, full ones are dropped at the next request.
const SWEEP_ABOVE: usize = 50_000;

impl RateLimiter {
    pub fn new(limits: Limits) -> RateLimiter {
        RateLimiter {
            limits,
            buckets: Mutex::new(HashMap::new()),
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
        Verdict {
            allowed,
            limit: budget.burst,
            remaining: bucket.tokens.floor() as u32,
            reset: secs(cap - bucket.tokens),
            retry_after: secs(1.0 - bucket.tokens).max(1),
        }
    }
}

fn hash(value: &impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// Who is asking: the bearer token (hashed: the map keeps no credential) when there is one,
/// else the peer address; creating and joining always by address.
fn client(req: &ServiceRequest) -> (Class, u64) {
    let path = req.path();
    let lobby = req.method() == Method::POST
        && (path == "/v1/games"
            || path.ends_with("/seats")
            || path == "/v1/players"
            || path == "/v1/seeks");
    let address = req
        .peer_addr()
        .map_or(IpAddr::from([0, 0, 0, 0]), |a| a.ip());
    if lobby {
        return (Class::Lobby, hash(&address));
    }
    match req.headers().get(header::AUTHORIZATION) {
        Some(token) => {
            let player = token.to_str().is_ok_and(|t| {
                t.get(7..)
                    .is_some_and(|t| t.trim().starts_with(crate::extract::PLAYER_TOKEN_PREFIX))
            });
            let class = if player { Class::Player } else { Class::Token };
            (class, hash(&token.as_bytes()))
        }
        None => (Class::Address, hash(&address)),
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
    let (class, key) = client(&req);
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
        RateLimiter::new(Limits {
            token: b(3, 1.0),
            player: b(5, 1.0),
            address: b(10, 1.0),
            lobby: b(1, 0.5),
        })
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
        assert_eq!(remaining[3].reset, 3);
        // Another client has its own bucket.
        assert!(l.draw(Class::Token, 2, t0).allowed);
        // One second later one request fits again.
        assert!(l.draw(Class::Token, 1, t0 + Duration::from_secs(1)).allowed);
        // Lobby: one per two seconds.
        assert!(l.draw(Class::Lobby, 1, t0).allowed);
        let v = l.draw(Class::Lobby, 1, t0);
        assert!(!v.allowed);
        assert_eq!(v.retry_after, 2);
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
