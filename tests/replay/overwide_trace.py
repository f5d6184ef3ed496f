#!/usr/bin/env python3
"""overwide_trace.py: writes tests/data/overwide_constructed.sstrace, the hand-made trace of the
over-wide wait cases (its .expect says what each case is).

  overwide_trace.py OUT
"""
import sys
S=["main","overwide.cu","/app/overwide","cudaMalloc","cudaLaunchKernel","cudaDeviceSynchronize","cudaMemcpy","producer(unsigned*)","unrelated(unsigned*)","cudaStreamSynchronize","cudaStreamWaitEvent","cudaEventRecord","cudaEventSynchronize","cudaMemcpy2D"]
sid={s:i+1 for i,s in enumerate(S)}
lines=["SSTRACE 1 3","meta program ./overwide","meta pid 4242","meta hostname example","meta gpu NVIDIA%20H200"]
for i,s in enumerate(S): lines.append(f"str {i+1} {s.replace(' ','%20')}")
stacks={}
for ln in [20,21,22,30,31,40,41,50,51,60,61,70,25,80,81,90,91,85,100,105,110,111,115,120,121]:
    stacks[ln]=len(stacks)+1
    lines+= [f"stack {stacks[ln]} 1", f"frame {4198000+ln} 1 2 3 {ln} 0"]
ev=[]
def api(enter,exit,corr,name,stream=0,sidn=0,bytes_=0,kind=-1,line=None):
    ev.append(f"api {enter} {exit} 1 {corr} {sid[name]} {stream} {sidn} 0 {bytes_} {kind} 0 0 0 0 0 {stacks[line] if line else 0}")
def args(t,corr,kind,complete,vals):
    v=vals+[0]*(8-len(vals)); ev.append(f"args {t} {corr} {kind} {complete} {len(vals)} "+" ".join(map(str,v)))
def kernel(s,e,corr,stream,name):
    ev.append(f"kernel {s} {e} {corr} {stream} 1 0 {sid[name]} 0 0 0 0 0")
def memcpy(s,e,corr,stream):
    ev.append(f"memcpy {s} {e} {corr} {stream} 1 0 0 4096 2 3 1 0")
A,B,C=1000000,2000000,3000000
for h,i,f in [(5001,13,1),(5002,14,1),(5003,15,1),(5004,16,0),(5005,17,0)]:
    ev.append(f"stream {h} {i} {f} 0 0 1")
for corr,(base,ln) in enumerate([(A,20),(B,21),(C,22)],1):
    api(100*corr,100*corr+50,corr,"cudaMalloc",bytes_=4096,line=ln); args(100*corr,corr,3,1,[base])
corr=10
def launch(t,stream_h,stream_id,vals,dur,name,complete=1,line=25,start=None):
    global corr
    start=t+20 if start is None else start
    corr+=1; api(t,t+10,corr,"cudaLaunchKernel",stream_h,stream_id,line=line); args(t,corr,1,complete,vals); kernel(start,start+dur,corr,stream_id,"producer(unsigned*)" if name=="p" else "unrelated(unsigned*)")
    return start+dur
def readback(t,line,lat=2000):
    global corr
    corr+=1; api(t,t+3000,corr,"cudaMemcpy",bytes_=4096,kind=2,line=line); args(t,corr,2,1,[77777,A]); memcpy(t+1000,t+1000+lat,corr,7)
# case 1: device sync over three streams, producer on 13
T=10000
launch(T,5001,13,[A],300000,"p"); launch(T+100,5002,14,[B],1500000,"u"); e=launch(T+200,5003,15,[C+8],2000000,"u")
corr+=1; api(T+300,e+2000,corr,"cudaDeviceSynchronize",line=30); readback(e+3000,31)
# case 2: an unrelated kernel with unknown parameters
T=3000000
launch(T,5001,13,[A],300000,"p"); e=launch(T+100,5002,14,[],2000000,"u",complete=0)
corr+=1; api(T+300,e+2000,corr,"cudaDeviceSynchronize",line=40); readback(e+3000,41)
# case 3: the producer ends last
T=6000000
e=launch(T,5001,13,[A],2000000,"p"); launch(T+100,5002,14,[B],500000,"u")
corr+=1; api(T+300,e+2000,corr,"cudaDeviceSynchronize",line=50); readback(e+3000,51)
# case 4: stream 13 synchronized: unrelated work before the producer on it
T=9000000
x=launch(T,5001,13,[B],1000000,"u"); e=launch(T+100,5001,13,[A],300000,"p",start=x+1000); launch(T+200,5002,14,[C],2500000,"u")
corr+=1; api(T+300,e+10000,corr,"cudaStreamSynchronize",5001,13,line=60); readback(e+20000,61)
# case 5: cudaMemcpy on the legacy stream after two blocking streams
T=13000000
launch(T,5004,16,[A],200000,"p"); e=launch(T+100,5005,17,[B],2000000,"u")
corr+=1; api(T+300,e+5000,corr,"cudaMemcpy",bytes_=4096,kind=2,line=70); args(T+300,corr,2,1,[77777,A]); memcpy(e+1000,e+4000,corr,7)
# case 6: the buffer read back is no recorded allocation
T=17000000
launch(T,5001,13,[A],300000,"p"); e=launch(T+100,5002,14,[B],2000000,"u")
corr+=1; api(T+300,e+2000,corr,"cudaDeviceSynchronize",line=80)
corr+=1; api(e+3000,e+6000,corr,"cudaMemcpy",bytes_=4096,kind=2,line=81); args(e+3000,corr,2,1,[77777,5000000]); memcpy(e+4000,e+5000,corr,7)
# case 7: stream 13 waited on an event before the producer: it may depend on stream 14
T=21000000
launch(T,5002,14,[B],2000000,"u")
corr+=1; api(T+50,T+60,corr,"cudaStreamWaitEvent",5001,13,line=85)
launch(T+100,5001,13,[A],300000,"p"); e=T+2000020
corr+=1; api(T+300,e+2000,corr,"cudaDeviceSynchronize",line=90); readback(e+3000,91)
# case 8: cudaMemcpy of the producer's buffer behind an unrelated kernel on its own (legacy)
# stream: what precedes the readback on its stream is needed
T=25000000
launch(T,5001,13,[A],300000,"p"); e=launch(T+400000,0,7,[B],2000000,"u")
corr+=1; api(T+400300,e+5000,corr,"cudaMemcpy",bytes_=4096,kind=2,line=100); args(T+400300,corr,2,1,[77777,A]); memcpy(e+1000,e+4000,corr,7)
# cases 9 and 10: cudaEventSynchronize of an event recorded on stream 13 (handle 0xE1, args
# kind 5), each followed by a cudaMemcpy2D of the producer's buffer. Line 110: the event was
# recorded (line 105) right after the producer, while stream 14 runs an unrelated kernel: a
# narrow wait, nothing. Line 120: the same event recorded again (line 115), now after the
# producer and an unrelated kernel on stream 13: the wait's last record decides, SYNC601.
EVT=0xE1
def event_record(t,line):
    global corr
    corr+=1; api(t,t+5,corr,"cudaEventRecord",5001,13,line=line); args(t,corr,5,1,[EVT])
def event_sync(t,end,line):
    global corr
    corr+=1; api(t,end,corr,"cudaEventSynchronize",line=line); args(t,corr,5,1,[EVT])
def readback_2d(t,line):
    global corr
    corr+=1; api(t,t+3000,corr,"cudaMemcpy2D",bytes_=4096,kind=2,line=line); args(t,corr,2,1,[77777,A+64]); memcpy(t+1000,t+2000,corr,7)
T=29000000
e=launch(T,5001,13,[A],300000,"p"); launch(T+100,5002,14,[B],2000000,"u")
event_record(T+200,105); event_sync(T+300,e+2000,110); readback_2d(e+3000,111)
T=33000000
p=launch(T,5001,13,[A],300000,"p"); e=launch(T+100,5001,13,[B],1500000,"u",start=p+1000)
event_record(T+200,115); event_sync(T+300,e+2000,120); readback_2d(e+3000,121)
ev.sort(key=lambda l:(0 if l.startswith("stream") else int(l.split()[1])))
lines+=ev
lines+= ["dropped 0", f"end {len(ev)} {len(S)+1} {len(stacks)+1}"]
open(sys.argv[1],"w").write("\n".join(lines)+"\n")
