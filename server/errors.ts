/** An error that answers with its status and react-admin's `{message, errors}` body (architecture §3). */
export class ApiError extends Error {
    constructor(
        readonly statusCode: number,
        message: string,
        readonly errors?: Record<string, string>
    ) {
        super(message);
    }
}

export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const forbidden = (message = 'You are not allowed to do this') => new ApiError(403, message);
export const conflict = (message: string) => new ApiError(409, message);
export const badRequest = (errors: Record<string, string>, message?: string) =>
    new ApiError(400, message ?? Object.values(errors)[0] ?? 'Invalid request', errors);
