//! What wraps every route: a JSON body for the errors axum answers itself
//! (an unknown route, a method a route does not take), and the headers of
//! the API and of the explorer's files.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::ApiError;

/// The fallback: [`json_errors`] words it with the method and path.
pub async fn not_found() -> Response {
    StatusCode::NOT_FOUND.into_response()
}

/// Gives every error a JSON body (axum's own 404 and 405 have none), and
/// adds the headers of the API and of the explorer's files.
pub async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let path = uri.path();
    let mut response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let allow = response.headers().get(header::ALLOW).cloned();
        let error = match status {
            StatusCode::NOT_FOUND => ApiError::NoRoute {
                method: method.to_string(),
                path: path.to_owned(),
            },
            StatusCode::METHOD_NOT_ALLOWED => ApiError::Method {
                method: method.to_string(),
                path: path.to_owned(),
                allow: allow
                    .as_ref()
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("none")
                    .to_owned(),
            },
            _ => ApiError::Status(status),
        };
        let mut replaced = error.into_response();
        if let Some(allow) = allow {
            replaced.headers_mut().insert(header::ALLOW, allow);
        }
        if method == Method::HEAD {
            // The headers of the answer a GET would get, no body.
            *replaced.body_mut() = Body::empty();
        }
        response = replaced;
    }
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if path.starts_with("/api/") {
        // Read-only answers: any page may ask.
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    } else {
        // The explorer loads nothing from anywhere else.
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
            ),
        );
    }
    response
}
