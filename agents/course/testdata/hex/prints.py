import STcpClient_1 as STcpClient

import common

calls = 0


def Getstep(mapStat, gameStat):
    global calls
    calls += 1
    print("free cells:", int((mapStat == 0).sum()))
    return common.pick(mapStat)


while True:
    (end_program, id_package, mapStat, gameStat) = STcpClient.GetBoard()
    if end_program:
        break
    STcpClient.SendStep(id_package, Getstep(mapStat, gameStat))
