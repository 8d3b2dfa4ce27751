package dev.gslb.api;

import java.util.List;

/**
 * The body of a 422: a change the server refused, every problem in it, and what stays in service
 * ("the table in service is the previous one"). Only changes answer it; a lookup that fails is a
 * 400 with one message ({@link ErrorBody}).
 */
public record Refusal(List<String> errors, String kept) {}
