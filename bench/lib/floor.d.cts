export declare function yamlRegions(text: string): string[];
export declare function skillDirs(dir: string): string[];
