//! A Chromium per [`Browser`], driven through one `chromedriver` process.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};

use super::{MAX_POLLS, POLL};
use crate::helpers::TestApp;

/// A `chromedriver` process on a free port, killed on drop.
pub struct Chromedriver {
    child: Child,
    url: String,
}

impl Chromedriver {
    pub async fn start() -> Chromedriver {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "chromedriver does not start ({e}): install Debian's `chromium` and \
                     `chromium-driver` (.ci/run does this when they are missing)"
                )
            });
        // From here on, dropping the driver (also in a panic) stops the process.
        let driver = Chromedriver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let http = reqwest::Client::new();
        for _ in 0..MAX_POLLS {
            let ready = http.get(format!("{}/status", driver.url)).send().await;
            if let Ok(res) = ready {
                let status: Value = res.json().await.unwrap_or_default();
                if status["value"]["ready"] == true {
                    return driver;
                }
            }
            tokio::time::sleep(POLL).await;
        }
        panic!("chromedriver did not become ready");
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One Chromium with a profile of its own, looking at the application.
pub struct Browser {
    pub client: Client,
    base: String,
    pub name: String,
    _profile: tempfile::TempDir,
}

/// Where screenshots are saved.
pub fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")));
    target.join("browser-screenshots")
}

impl Browser {
    /// A new browser of `width` × `height` CSS pixels; narrower than 600 pixels it is a phone
    /// (Chromium's mobile emulation: that viewport, touch, a device pixel ratio of 2), since a
    /// desktop window cannot be that narrow. Other players' moves are shown at once (the
    /// reader's "pace" setting), so that a test never waits for a replay at reading speed;
    /// [`Browser::set_pace`] changes that. It prefers reduced motion.
    pub async fn open(
        driver: &Chromedriver,
        app: &TestApp,
        name: &str,
        size: (u32, u32),
    ) -> Browser {
        Browser::open_speaking(driver, app, name, size, None).await
    }

    /// [`Browser::open`] for a person whose browser prefers `language` (an `Accept-Language`
    /// list such as `"de-DE,de"`: Chromium's `--lang` and its `intl.accept_languages`
    /// preference, which `navigator.languages` reports), or the machine's default with `None`.
    pub async fn open_speaking(
        driver: &Chromedriver,
        app: &TestApp,
        name: &str,
        size: (u32, u32),
        language: Option<&str>,
    ) -> Browser {
        Browser::open_with_prefs(driver, app, name, size, language, json!({})).await
    }

    /// [`Browser::open`] for a person who allowed the site's notifications (Chromium's
    /// `profile.default_content_setting_values.notifications` preference: 1 allows, so that
    /// `Notification.permission` is `granted` without asking).
    pub async fn open_allowing_notifications(
        driver: &Chromedriver,
        app: &TestApp,
        name: &str,
        size: (u32, u32),
    ) -> Browser {
        let prefs = json!({ "profile.default_content_setting_values.notifications": 1 });
        Browser::open_with_prefs(driver, app, name, size, None, prefs).await
    }

    /// [`Browser::open_speaking`] with Chromium preferences `prefs` (an object) besides.
    async fn open_with_prefs(
        driver: &Chromedriver,
        app: &TestApp,
        name: &str,
        size: (u32, u32),
        language: Option<&str>,
        mut prefs: Value,
    ) -> Browser {
        let profile = tempfile::tempdir().expect("a profile directory");
        let mut args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            // Pieces jump instead of gliding: a test clicks at once instead of waiting for
            // them to stand still (the glide is drawing only; `perform` waits for it anyway).
            "--force-prefers-reduced-motion".into(),
            format!("--window-size={},{}", size.0, size.1),
            format!("--user-data-dir={}", profile.path().display()),
        ];
        if let Some(language) = language {
            args.push(format!("--lang={language}"));
        }
        if let Some(language) = language {
            prefs["intl.accept_languages"] = json!(language);
        }
        let mut options = json!({ "binary": chromium_binary(), "args": args, "prefs": prefs });

        if size.0 < 600 {
            options["mobileEmulation"] = json!({
                "deviceMetrics": { "width": size.0, "height": size.1, "pixelRatio": 2, "touch": true }
            });
        }
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert("goog:chromeOptions".into(), options);
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&driver.url)
            .await
            .unwrap_or_else(|e| panic!("a Chromium session through chromedriver: {e}"));
        let browser = Browser {
            client,
            base: app.base.clone(),
            name: name.to_string(),
            _profile: profile,
        };
        browser.set_pace(&app.base, "instant").await;
        browser
    }

    /// Sets how this browser shows other players' moves on the site at `base`: `instant`,
    /// `normal` or `slow` (the page's menu setting, kept in local storage).
    pub async fn set_pace(&self, base: &str, pace: &str) {
        // Any page of the site gives its local storage; the icon is the smallest.
        self.goto(&format!("{base}/favicon.ico")).await;
        self.js(
            "localStorage.setItem('boardgames.settings.v1', JSON.stringify({pace: arguments[0]}));",
            vec![json!(pace)],
        )
        .await;
    }

    pub async fn goto(&self, path: &str) {
        let url = if path.starts_with("http") {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        };
        self.client.goto(&url).await.expect("navigate");
    }

    /// Runs `script` (a function body; `arguments[i]` are `args`) in the page.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("{}: script failed: {e}\n{script}", self.name))
    }

    /// Polls `script` until it returns `true`.
    pub async fn wait_until(&self, what: &str, script: &str, args: Vec<Value>) {
        for _ in 0..MAX_POLLS {
            if self.js(script, args.clone()).await == Value::Bool(true) {
                return;
            }
            tokio::time::sleep(POLL).await;
        }
        self.screenshot("timeout").await;
        panic!("{}: gave up waiting until {what}", self.name);
    }

    /// Waits for the page's first render (`body[data-ready]`).
    pub async fn wait_ready(&self) {
        self.wait_until(
            "the page is rendered",
            "return document.body.dataset.ready === 'true';",
            vec![],
        )
        .await;
    }

    /// A real click (WebDriver scrolls the element into view and clicks its centre).
    pub async fn click(&self, css: &str) {
        let el = self
            .client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("{}: no {css}: {e}", self.name));
        el.click()
            .await
            .unwrap_or_else(|e| panic!("{}: clicking {css}: {e}", self.name));
    }

    /// Types `text` into the input `css`, replacing what is there.
    pub async fn fill(&self, css: &str, text: &str) {
        let el = self.client.find(Locator::Css(css)).await.expect(css);
        el.clear().await.expect("clear");
        el.send_keys(text).await.expect("type");
    }

    pub async fn select(&self, css: &str, value: &str) {
        let el = self.client.find(Locator::Css(css)).await.expect(css);
        el.select_by_value(value).await.expect("select");
    }

    /// Asserts that the page needs no sideways scrolling (on a phone: it fits the screen). A
    /// phone widens its layout to content that overflows (and zooms out), so `innerWidth`
    /// grows with it; the root's `clientWidth` stays the screen's.
    pub async fn assert_fits_width(&self, what: &str) {
        let fits = self
            .js(
                "const root = document.documentElement;
                 return root.scrollWidth <= Math.min(window.innerWidth, root.clientWidth);",
                vec![],
            )
            .await;
        assert_eq!(fits, true, "{}: {what} is wider than the window", self.name);
    }

    /// The whole DOM as HTML, form values included.
    pub async fn dom(&self) -> String {
        let html = self
            .js(
                "return document.documentElement.outerHTML + '\\n' + \
                 [...document.querySelectorAll('input, select, textarea')].map((e) => e.value).join('\\n');",
                vec![],
            )
            .await;
        html.as_str().unwrap_or_default().to_string()
    }

    /// Saves a screenshot of the top of the page as
    /// `target/browser-screenshots/<browser>-<name>.png`.
    pub async fn screenshot(&self, name: &str) {
        let _ = self.client.execute("window.scrollTo(0, 0);", vec![]).await;
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).expect("screenshot directory");
        if let Ok(png) = self.client.screenshot().await {
            let _ = std::fs::write(dir.join(format!("{}-{name}.png", self.name)), png);
        }
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// Debian's Chromium binary (chromedriver looks for Google Chrome's path otherwise).
fn chromium_binary() -> String {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .unwrap_or("/usr/bin/chromium")
        .to_string()
}
