// The media type of every JSON answer of the operation handlers.
export const JSON_TYPE = 'application/json; charset=utf-8';
