"""Proto Studio: author AutoMobile prototype specs with an AI agent, preview them, demo them."""

__version__ = "0.1.0"
