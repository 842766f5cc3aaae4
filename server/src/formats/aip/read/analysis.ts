import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import type { ProcedureBlock } from './procedureBlock';

/** The analysis of an AIP skill: its procedure block, which hover, completion and fixes read. */
export type AipAnalysis = AnalysisBase & { format: 'aip-0.3' | 'aip-0.5'; procedure?: ProcedureBlock };
