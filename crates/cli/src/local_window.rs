//! The context window a local server says it has, for a model the catalog
//! does not know: llama.cpp's `/props` (`n_ctx` of its slots), vLLM's
//! `/v1/models` (`max_model_len`) and Ollama's `/api/show` (`num_ctx`, else
//! the model's `context_length`). Without it wright would assume 128k and
//! compact far too late for a server running with 8k or 32k. Only servers
//! on the usual local ports (`WRIGHT_LOCAL_SERVER_PORTS`) of a loopback or
//! private address are asked, each at most about a second.

use std::net::IpAddr;
use std::time::Duration;

use serde_json::Value;

/// How long each question may take.
const ASK_TIMEOUT: Duration = Duration::from_millis(1200);

/// The window `base_url`'s server reports for `model`, and who said it.
pub async fn advertised(base_url: &str, model: &str, ports: &[u16]) -> Option<(u64, &'static str)> {
    let url = reqwest::Url::parse(base_url).ok()?;
    let host = url.host_str()?;
    let local = host == "localhost"
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(is_local);
    if !local
        || !url
            .port_or_known_default()
            .is_some_and(|p| ports.contains(&p))
    {
        return None;
    }
    let origin = url.origin().ascii_serialization();
    let http = wright_llm::http_client_for(base_url).ok()?;
    let get = |u: String| {
        let http = http.clone();
        async move { json_of(http.get(u).timeout(ASK_TIMEOUT).send().await.ok()?).await }
    };
    let show = {
        let http = http.clone();
        let u = format!("{origin}/api/show");
        let body = serde_json::json!({ "model": model });
        async move {
            json_of(
                http.post(u)
                    .json(&body)
                    .timeout(ASK_TIMEOUT)
                    .send()
                    .await
                    .ok()?,
            )
            .await
        }
    };
    let (props, models, show) = tokio::join!(
        get(format!("{origin}/props")),
        get(format!("{}/models", base_url.trim_end_matches('/'))),
        show,
    );
    props
        .as_ref()
        .and_then(llama_cpp_window)
        .map(|n| (n, "llama.cpp (/props)"))
        .or_else(|| {
            models
                .as_ref()
                .and_then(|m| vllm_window(m, model))
                .map(|n| (n, "the server's /v1/models"))
        })
        .or_else(|| {
            show.as_ref()
                .and_then(ollama_window)
                .map(|n| (n, "Ollama (/api/show)"))
        })
}

fn is_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        IpAddr::V6(v6) => v6.is_loopback() || v6.is_unique_local(),
    }
}

async fn json_of(response: reqwest::Response) -> Option<Value> {
    if !response.status().is_success() {
        return None;
    }
    response.json().await.ok()
}

fn positive(v: &Value) -> Option<u64> {
    v.as_u64().filter(|n| *n > 0)
}

/// llama.cpp: the context of one slot (what a request can use).
fn llama_cpp_window(props: &Value) -> Option<u64> {
    positive(&props["default_generation_settings"]["n_ctx"]).or_else(|| positive(&props["n_ctx"]))
}

/// vLLM (and servers like it): the served model's `max_model_len`.
fn vllm_window(models: &Value, model: &str) -> Option<u64> {
    let list = models["data"].as_array()?;
    let entry = list
        .iter()
        .find(|m| m["id"] == model)
        .or_else(|| (list.len() == 1).then(|| &list[0]))?;
    positive(&entry["max_model_len"]).or_else(|| positive(&entry["context_length"]))
}

/// Ollama: `num_ctx` when the model sets it, else the model's own length.
fn ollama_window(show: &Value) -> Option<u64> {
    let from_parameters = show["parameters"].as_str().and_then(|p| {
        p.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            (words.next() == Some("num_ctx"))
                .then(|| words.next()?.parse().ok())
                .flatten()
        })
    });
    from_parameters.filter(|n| *n > 0).or_else(|| {
        show["model_info"]
            .as_object()?
            .iter()
            .find(|(k, _)| k.ends_with(".context_length"))
            .and_then(|(_, v)| positive(v))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_servers_shape_gives_its_window() {
        let props = json!({"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1});
        assert_eq!(llama_cpp_window(&props), Some(8192));
        assert_eq!(llama_cpp_window(&json!({"n_ctx": 4096})), Some(4096));
        assert_eq!(llama_cpp_window(&json!({})), None);
        let models = json!({"data": [{"id": "qwen", "max_model_len": 32768}, {"id": "other", "max_model_len": 2048}]});
        assert_eq!(vllm_window(&models, "qwen"), Some(32768));
        let one = json!({"data": [{"id": "served-name", "max_model_len": 16384}]});
        assert_eq!(vllm_window(&one, "alias"), Some(16384));
        assert_eq!(vllm_window(&json!({"data": [{"id": "x"}]}), "x"), None);
        let show = json!({"parameters": "stop \"<|im_end|>\"\nnum_ctx 12288", "model_info": {"qwen2.context_length": 32768}});
        assert_eq!(ollama_window(&show), Some(12288));
        let show = json!({"model_info": {"general.architecture": "llama", "llama.context_length": 131072}});
        assert_eq!(ollama_window(&show), Some(131072));
    }

    #[tokio::test]
    async fn only_local_servers_on_the_usual_ports_are_asked() {
        // Nothing listens there, and none of these may even be tried.
        assert_eq!(
            advertised("https://api.example.com/v1", "m", &[443]).await,
            None
        );
        assert_eq!(
            advertised("http://127.0.0.1:9/v1", "m", &[8080]).await,
            None
        );
        assert_eq!(advertised("not a url", "m", &[8080]).await, None);
    }
}
