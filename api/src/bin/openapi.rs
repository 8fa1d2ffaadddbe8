//! Prints the OpenAPI document (the content of `openapi/openapi.json`).

fn main() {
    print!("{}", api::openapi::document_json());
}
