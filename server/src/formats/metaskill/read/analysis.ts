import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import type { MetaPlan } from './metaPlan';

/** The analysis of a MetaSkill: its plan, in either form. */
export type MetaAnalysis = AnalysisBase & { format: 'metaskill' | 'metaskill-sop'; metaPlan?: MetaPlan };
