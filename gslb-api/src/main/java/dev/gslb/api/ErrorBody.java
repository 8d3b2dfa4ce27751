package dev.gslb.api;

/** Any 4xx/5xx but 422: one message saying what was wrong. */
public record ErrorBody(String error) {}
