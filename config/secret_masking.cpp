// placeholder: implemented by a helper
