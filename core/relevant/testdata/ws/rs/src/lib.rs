pub mod cart;
pub mod legacy;
pub mod text;
