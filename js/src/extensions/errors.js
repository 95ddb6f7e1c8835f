// n8n's ExpressionExtensionError.
export class ExpressionExtensionError extends Error {
  constructor(message, description) {
    super(message);
    this.name = 'ExpressionExtensionError';
    if (description !== undefined) this.description = description;
  }
}
