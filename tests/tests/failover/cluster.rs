//! A PostgreSQL cluster under Patroni for a test: `scripts/patroni-cluster` as a child
//! process, its members, and the moves a test makes on them (find the leader, kill its
//! postmaster, pause a replica's replay). Dropping the cluster closes the script's standard
//! input, on which it stops everything it started and deletes its folder; the drop waits
//! for that, so that no test leaves servers running behind it.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, ChildStderr, Command, Stdio};

use diesel::prelude::*;
use serde_json::Value;

/// One PostgreSQL member.
#[derive(Debug, Clone)]
pub struct Member {
    /// Patroni's name for it (`m1`, …).
    pub name: String,
    /// `127.0.0.1:<port>` of its PostgreSQL.
    pub address: String,
    /// Its Patroni REST API, `http://127.0.0.1:<port>`.
    pub rest: String,
    /// Its data directory (where `postmaster.pid` is).
    pub data: PathBuf,
}

impl Member {
    /// A URL to this member alone.
    pub fn url(&self) -> String {
        format!("postgresql://postgres@{}/postgres", self.address)
    }

    /// The pid of its postmaster, from `postmaster.pid`.
    ///
    /// # Panics
    /// When the member's PostgreSQL is not running.
    pub fn postmaster_pid(&self) -> i32 {
        let text = std::fs::read_to_string(self.data.join("postmaster.pid"))
            .unwrap_or_else(|e| panic!("{} runs no PostgreSQL: {e}", self.name));
        text.lines().next().unwrap().trim().parse().unwrap()
    }

    /// Runs `sql` on this member alone.
    pub fn execute(&self, sql: &str) {
        let mut conn = PgConnection::establish(&self.url()).expect("connect to the member");
        diesel::sql_query(sql).execute(&mut conn).expect(sql);
    }
}

/// A running cluster.
pub struct Cluster {
    child: Option<Child>,
    stderr: Option<ChildStderr>,
    pub members: Vec<Member>,
    /// The libpq multi-host URL of whichever member accepts writes.
    pub writer_url: String,
    /// The multi-host URL that prefers standbys.
    pub reader_url: String,
}

impl Cluster {
    /// Starts a cluster of `members` PostgreSQL members (fsync off) and waits until it is
    /// ready (a leader and a synchronous standby streaming from it).
    ///
    /// # Panics
    /// When the script fails; the message carries its output (the members' log tails).
    pub async fn start(members: usize) -> Cluster {
        tokio::task::spawn_blocking(move || Cluster::start_blocking(members))
            .await
            .unwrap()
    }

    fn start_blocking(members: usize) -> Cluster {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/patroni-cluster");
        let mut child = Command::new("bash")
            .arg(script)
            .args(["--members", &members.to_string(), "--unsafe-fast"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run scripts/patroni-cluster");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut stderr = child.stderr.take();
        let mut cluster = Cluster {
            child: None,
            stderr: None,
            members: Vec::new(),
            writer_url: String::new(),
            reader_url: String::new(),
        };
        for line in stdout.lines() {
            let line = line.unwrap();
            if line == "ready" {
                cluster.child = Some(child);
                cluster.stderr = stderr;
                return cluster;
            }
            if let Some(url) = line.strip_prefix("WRITER_URL=") {
                cluster.writer_url = url.to_string();
            } else if let Some(url) = line.strip_prefix("READER_URL=") {
                cluster.reader_url = url.to_string();
            } else if let Some(member) = line.strip_prefix("member ") {
                let words: Vec<&str> = member.split_whitespace().collect();
                let field = |key: &str| {
                    words
                        .iter()
                        .find_map(|w| w.strip_prefix(key))
                        .unwrap_or_else(|| panic!("no {key} in {line}"))
                        .to_string()
                };
                cluster.members.push(Member {
                    name: words[0].to_string(),
                    address: words[1].to_string(),
                    rest: field("rest="),
                    data: PathBuf::from(field("data=")),
                });
            }
        }
        let mut errors = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_string(&mut errors);
        }
        let status = child.wait().unwrap();
        panic!("scripts/patroni-cluster ended before it was ready ({status}):\n{errors}");
    }

    /// The members with their role as Patroni's DCS records it now (`leader`,
    /// `sync_standby`, `replica`), asked of any member that answers.
    pub async fn roles(&self) -> Option<Vec<(Member, String)>> {
        let client = reqwest::Client::new();
        for m in &self.members {
            let Ok(res) = client.get(format!("{}/cluster", m.rest)).send().await else {
                continue;
            };
            let Ok(body) = res.json::<Value>().await else {
                continue;
            };
            let roles = body["members"]
                .as_array()?
                .iter()
                .filter_map(|entry| {
                    let member = self.members.iter().find(|m| m.name == entry["name"])?;
                    Some((member.clone(), entry["role"].as_str()?.to_string()))
                })
                .collect();
            return Some(roles);
        }
        None
    }

    /// Puts the cluster into Patroni's maintenance mode (`patronictl pause`): Patroni then
    /// leaves the members alone. Needed to hold a replica's replay paused, which Patroni
    /// otherwise resumes within a loop (it takes a paused replay on PostgreSQL 14+ for one
    /// paused by a parameter change). Returns once every member's Patroni knows.
    pub async fn enter_maintenance(&self) {
        let client = reqwest::Client::new();
        let res = client
            .patch(format!("{}/config", self.members[0].rest))
            .json(&serde_json::json!({ "pause": true }))
            .send()
            .await
            .expect("PATCH /config");
        assert!(res.status().is_success(), "{:?}", res.text().await);
        for m in &self.members {
            testkit::wait_for(
                &format!("{}'s Patroni to know of the pause", m.name),
                || {
                    let client = client.clone();
                    async move {
                        let status: Value = client
                            .get(format!("{}/patroni", m.rest))
                            .send()
                            .await
                            .unwrap()
                            .json()
                            .await
                            .unwrap();
                        (status["pause"] == true).then_some(())
                    }
                },
            )
            .await;
        }
    }

    /// The member with `role`, if the cluster has one now.
    pub async fn member_with_role(&self, role: &str) -> Option<Member> {
        self.roles()
            .await?
            .into_iter()
            .find(|(_, r)| r == role)
            .map(|(m, _)| m)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            drop(child.stdin.take());
            let _ = child.wait();
        }
        drop(self.stderr.take());
    }
}
