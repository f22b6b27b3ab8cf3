// Empty: this crate exists only so that `cargo vendor` can fetch its dependency.
