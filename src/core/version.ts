// The tool's version, written into run logs and reports (a unit test keeps it equal to package.json's).
export const TOOL_VERSION = '0.1.0';
