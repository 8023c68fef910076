/** The source file behind each published entry point of the runtime and the compiler. */
export function entryPoints(): string[];
/** Generates the Markdown API reference into `outDir`; resolves to TypeDoc's error and warning counts. */
export function generateApi(outDir: string): Promise<{ errors: number; warnings: number }>;
